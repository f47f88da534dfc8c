// The random test of a command's fast argument reader (render, list): argument lists drawn from a
// pool, each the fast reader reads held to ArgumentParser's reading of it.

/// What `compareFastReader` found: how many lists the fast reader read, and those where
/// ArgumentParser read other settings (or none).
public struct FastReaderComparison: Sendable {
    /// The lists the fast reader read (its result not nil).
    public var read = 0
    /// The lists among them ArgumentParser read otherwise.
    public var disagreements: [[String]] = []
}

/// Draws `count` argument lists, each `command` followed by 0 to `longest` arguments from `pool`
/// (seeded: a failure reproduces), and compares, wherever `fast` reads a list, its settings with
/// those `reference` (ArgumentParser) reads from it.
public func compareFastReader<Settings: Equatable>(
    command: String, pool: [String], longest: Int, seed: UInt64, count: Int = 10_000,
    fast: ([String]) -> Settings?, reference: ([String]) -> Settings?
) -> FastReaderComparison {
    var random = SplitMix64(seed: seed)
    var result = FastReaderComparison()
    for _ in 0..<count {
        let length = Int(random.next() % UInt64(longest + 1))
        let list = [command] + (0..<length).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
        guard let settings = fast(list) else { continue }
        result.read += 1
        if reference(list) != settings { result.disagreements.append(list) }
    }
    return result
}
