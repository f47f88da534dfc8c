// `cellkit-threadcheck`: one CellRegistry shared by several threads, for
// ThreadSanitizer (Scripts/sanitizers.sh builds it with --sanitize=thread).
//
// All threads are released at once and resolve the same identifiers in
// different orders, so the first resolves race on lazy plugin loading (dlopen,
// the ABI check, dlsym, libffi call interfaces). Then each thread runs its own
// CellQueue (and CellContext) over thousands of rows: typed-pointer hooks, the
// `Bar` hook's declared list reading row data, a libffi hook, prepare-for-reuse, the height API, cells
// held in batches so pools fill, overflow and refill. Every text, height,
// indentation and counter is checked; any mismatch exits 1.
//
//     cellkit-threadcheck [--plugin-dir DIR] [--threads N] [--rows N] [--also IDENTIFIER]… [--canary]
//
// DIR defaults to this executable's folder, where `swift build` puts the C plugin
// FoobarCells; BenchmarkCells is built there by Scripts/sanitizers.sh (it is no
// package product, so it never sits beside a user's cellkit). `--also` resolves further identifiers
// in every thread and runs their rows unchecked (for trying other plugins).
// Then a long data file is read ahead on a helper thread (ReadAhead.swift).
// `--canary` races on purpose (all threads increment one unlocked counter) and
// must make ThreadSanitizer report: proof the check is live.

import CellKit
import CellKitModel
import Foundation
import Synchronization

// MARK: Options

struct Options: Sendable {
    var pluginDirectory = SearchPath.executableDirectory() ?? "."
    var threads = 4
    var rows = 20_000
    var extra: [String] = []
    var canary = false

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) -> String {
            guard let v = rest.popFirst() else { usage("\(flag) needs a value") }
            return v
        }
        func count(_ flag: String) -> Int {
            guard let n = Int(value(flag)), n > 0 else { usage("\(flag) needs a positive number") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--plugin-dir": options.pluginDirectory = value(argument)
            case "--threads": options.threads = count(argument)
            case "--rows": options.rows = count(argument)
            case "--also": options.extra.append(value(argument))
            case "--canary": options.canary = true
            case "-h", "--help": usage(nil)
            default: usage("unknown argument '\(argument)'")
            }
        }
        return options
    }
}

func usage(_ problem: String?) -> Never {
    if let problem { fail("cellkit-threadcheck: \(problem)", status: 2, usage: true) }
    print("usage: cellkit-threadcheck [--plugin-dir DIR] [--threads N] [--rows N] [--also IDENTIFIER]... [--canary]")
    exit(0)
}

func fail(_ message: String, status: Int32, usage: Bool = false) -> Never {
    var text = message + "\n"
    if usage {
        text +=
            "usage: cellkit-threadcheck [--plugin-dir DIR] [--threads N] [--rows N] [--also IDENTIFIER]... [--canary]\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(status)
}

// MARK: The cell types checked

/// What a row of each identifier must show after its hooks ran.
enum Kind: Sendable {
    case foobar  // typed pointers: init + customize, no height hook
    case bar  // declared lists in registers: customize and height; typed prepare-for-reuse
    case bench(level: Int)  // typed pointer setting the indentation level
    case benchRow  // the same through a declared list: in registers, or (7 words) libffi
    case unchecked  // --also: run, not checked
}

let checked: [(name: String, kind: Kind)] = [
    ("Foobar", .foobar), ("Bar", .bar),
    ("BenchAlpha", .bench(level: 0)), ("BenchBeta", .bench(level: 1)), ("BenchGamma", .bench(level: 2)),
    ("BenchDeclared", .benchRow), ("BenchFFI", .benchRow),
]

// MARK: Shared state

/// What the threads share: the one registry, the start line and the results.
final class Shared: Sendable {
    let registry: CellRegistry
    let options: Options
    let names: [String]
    let kinds: [Kind]
    /// Threads that reached the start line; all go once it equals the thread count.
    let arrived = Atomic<Int>(0)
    let failures = Mutex<[String]>([])
    /// Per thread, the identity of the CellType each identifier resolved to.
    let resolved = Mutex<[Int: [ObjectIdentifier]]>([:])
    let rowsDone = Atomic<Int>(0)
    /// Only for --canary: a counter every thread increments with no lock.
    let canary = Canary()

    init(registry: CellRegistry, options: Options) {
        self.registry = registry
        self.options = options
        names = checked.map(\.name) + options.extra
        kinds = checked.map(\.kind) + options.extra.map { _ in .unchecked }
    }

    func fail(_ thread: Int, _ message: String) {
        failures.withLock { if $0.count < 50 { $0.append("thread \(thread): \(message)") } }
    }
}

// MARK: One thread's work

func work(_ shared: Shared, thread: Int) {
    let registry = shared.registry
    let names = shared.names, kinds = shared.kinds
    let count = names.count

    // The start line: everyone resolves at the same moment.
    shared.arrived.add(1, ordering: .acquiringAndReleasing)
    while shared.arrived.load(ordering: .acquiring) < shared.options.threads { sched_yield() }
    if shared.options.canary {
        // Read-modify-write by every thread with no lock: a data race by design. Right after
        // the start line, before any lock, so that nothing can order one thread's writes
        // before another's (every thread's arrival precedes every thread's writes).
        for _ in 0..<10_000 { shared.canary.count &+= 1 }
    }

    // Resolve every identifier, each thread starting at a different one, so the
    // two plugins are loaded while other threads resolve from them.
    var types = [CellType?](repeating: nil, count: count)
    for k in 0..<count {
        let i = (k + thread) % count
        do { types[i] = try registry.cellType(named: names[i]) } catch {
            shared.fail(thread, "resolving '\(names[i])': \(error)")
        }
    }
    guard types.allSatisfy({ $0 != nil }) else { return }
    let resolvedTypes = types.map { $0! }
    shared.resolved.withLock { $0[thread] = resolvedTypes.map(ObjectIdentifier.init) }
    let slots = resolvedTypes.map(\.reuseSlot)

    let context = CellContext()
    context.contentWidth = 40
    let queue = CellQueue(registry: registry, context: context)
    var dequeued = [Int](repeating: 0, count: count)
    // The pools as they should be: a dequeue takes a pooled cell if there is one,
    // a recycle keeps the cell if the pool has room. Compared with the queue's counters.
    var modelPooled = [Int](repeating: 0, count: count)
    var modelCreated = [Int](repeating: 0, count: count)
    var held: [(cell: Cell, index: Int, row: Int)] = []
    held.reserveCapacity(8)
    var mismatches = 0
    func mismatch(_ message: @autoclosure () -> String) {
        mismatches += 1
        if mismatches <= 5 { shared.fail(thread, message()) }
    }

    let rows = shared.options.rows
    var row = 0
    while row < rows {
        // Hold 1 to 8 cells at once (more than the pool's 5), then give them back.
        let batch = 1 + (row / 3 + thread) % 8
        for _ in 0..<batch where row < rows {
            let index = (row + thread + row / 11) % count
            let section = thread
            let indexPath = IndexPath(section: section, row: row)
            var data = RowValue.null
            if case .bar = kinds[index], row % 3 != 0 { data = .object(["title": .string("t\(thread).\(row)")]) }
            // Now and then the slow path: an identifier looked up again, the type object passed.
            let cell =
                row % 97 == 0
                ? queue.dequeueCell(try! registry.cellType(named: names[index]), at: indexPath, data: data)
                : queue.dequeueCell(slots[index], at: indexPath, data: data)
            dequeued[index] += 1
            if modelPooled[index] > 0 { modelPooled[index] -= 1 } else { modelCreated[index] += 1 }
            let text = cell.textLabel.text
            let height = queue.height(of: cell)
            switch kinds[index] {
            case .foobar:
                if text != "Row: \(row)" { mismatch("Foobar \(RowName.forAuthor(indexPath)): text \(text ?? "nil")") }
                if cell.textLabel.alignment != .center || cell.textLabel.fontWeight != .bold {
                    mismatch("Foobar \(RowName.forAuthor(indexPath)): init hook's look missing")
                }
                if height != nil {
                    mismatch("Foobar \(RowName.forAuthor(indexPath)): height \(height!), expected none")
                }
            case .bar:
                // data, not a message
                let expected = row % 3 != 0 ? "t\(thread).\(row)" : "Bar \(section).\(row)"
                if text != expected {
                    mismatch("Bar \(RowName.forAuthor(indexPath)): text \(text ?? "nil"), expected \(expected)")
                }
                let expectedHeight: Double = row == 0 ? 2 : 1
                if height != expectedHeight {
                    mismatch(
                        "Bar \(RowName.forAuthor(indexPath)): height \(height.map { "\($0)" } ?? "nil"), expected \(expectedHeight)"
                    )
                }
            case .bench(let level):
                if cell.indentationLevel != (row + level) & 3 {
                    mismatch("\(names[index]) \(RowName.forAuthor(indexPath)): indentation \(cell.indentationLevel)")
                }
            case .benchRow:
                if cell.indentationLevel != row & 3 {
                    mismatch("\(names[index]) \(RowName.forAuthor(indexPath)): indentation \(cell.indentationLevel)")
                }
            case .unchecked:
                break
            }
            if cell.indexPath != indexPath {
                mismatch("\(RowName.forAuthor(indexPath)): cell shows \(RowName.forAuthor(cell.indexPath))")
            }
            held.append((cell, index, row))
            row += 1
        }
        // Give the batch back: Bar's prepare-for-reuse hook runs and the C strings its data lookups got are freed.
        while let (cell, index, _) = held.popLast() {
            queue.recycle(cell)
            if modelPooled[index] < queue.poolLimit { modelPooled[index] += 1 }
        }
    }

    // Counters: exactly what the model of the pools says.
    for (i, type) in resolvedTypes.enumerated() {
        let statistics = queue.statistics(for: type)
        let expected = (created: modelCreated[i], reused: dequeued[i] - modelCreated[i])
        if statistics.created != expected.created || statistics.reused != expected.reused {
            mismatch(
                "\(names[i]): created \(statistics.created), reused \(statistics.reused); expected \(expected.created), \(expected.reused)"
            )
        }
        if queue.pooledCount(for: type) != modelPooled[i] {
            mismatch("\(names[i]): \(queue.pooledCount(for: type)) cells pooled, expected \(modelPooled[i])")
        }
    }
    if !context.warnings.isEmpty { mismatch("warnings: \(context.warnings)") }
    shared.rowsDone.add(row, ordering: .relaxed)
}

// MARK: Threads

/// Starts `body` on a new POSIX thread.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
    guard status == 0 else { fail("cellkit-threadcheck: pthread_create failed (\(status))", status: 2) }
    return thread
}

// MARK: Main

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let registry = CellRegistry(options: DiscoveryOptions(searchPath: .custom([options.pluginDirectory])))

// The plugins must be there and not yet open: the threads race to open them.
var pluginPaths: Set<String> = []
for name in checked.map(\.name) + options.extra {
    guard let identifier = try? CellIdentifier(name), let registration = registry.catalog.registration(for: identifier)
    else {
        fail(
            """
            cellkit-threadcheck: no plugin in \(options.pluginDirectory) provides '\(name)'.
            Build the C plugins beside this tool: swift build --product FoobarCells (same --sanitize and --scratch-path), and
            cc -shared -fPIC -I Sources/CCellKit/include Plugins/BenchmarkCells/BenchmarkCells.c -o \(options.pluginDirectory)/libBenchmarkCells.so
            """, status: 2)
    }
    pluginPaths.insert(registry.catalog.plugin(at: registration.pluginIndex).path)
}
for path in pluginPaths where registry.isLoaded(pluginAt: path) {
    fail("cellkit-threadcheck: \(path) is already loaded before the threads start", status: 2)
}

let shared = Shared(registry: registry, options: options)
let start = ContinuousClock.now
let threads = (0..<options.threads).map { t in startThread { work(shared, thread: t) } }
for thread in threads { pthread_join(thread, nil) }
let elapsed = (ContinuousClock.now - start).components
let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18

// Every thread must have got the same CellType object for each identifier: one load, one resolve.
var failures = shared.failures.withLock { $0 }
let resolved = shared.resolved.withLock { $0 }
if resolved.count == options.threads, let first = resolved[0] {
    for (t, identities) in resolved.sorted(by: { $0.key < $1.key }) where identities != first {
        failures.append("thread \(t): resolved different CellType objects than thread 0")
    }
} else if failures.isEmpty {
    failures.append("only \(resolved.count) of \(options.threads) threads resolved their identifiers")
}
for path in pluginPaths where !registry.isLoaded(pluginAt: path) { failures.append("\(path) was never loaded") }
let rowsDone = shared.rowsDone.load(ordering: .relaxed)
if failures.isEmpty && rowsDone != options.rows * options.threads {
    failures.append("\(rowsDone) rows done, expected \(options.rows * options.threads)")
}

if !options.canary { failures += checkReadAhead(rows: options.rows) }

if failures.isEmpty {
    print(
        "cellkit-threadcheck: OK — \(options.threads) threads × \(options.rows) rows over \(shared.names.count) identifiers "
            + "from \(pluginPaths.count) plugins, one registry, in \(String(format: "%.2f", seconds)) s"
            + (options.canary ? "" : "; a data file read ahead on a helper thread, row for row"))
} else {
    for failure in failures { FileHandle.standardError.write(Data("cellkit-threadcheck: FAIL \(failure)\n".utf8)) }
    exit(1)
}

/// A counter shared without a lock, for `--canary` only: `@unchecked Sendable` is the lie
/// ThreadSanitizer must catch.
final class Canary: @unchecked Sendable {
    var count = 0
}
