// A render worker's warnings as they arise, kept in memory its supervisor shares, so that
// a worker that crashes takes none of them with it: the supervisor reads the journal of
// every worker it ran and merges them (`merged`). Written by one `CellContext` under its
// lock; read by the supervisor only once that worker has ended. Its bytes come from a
// process that runs plugins: read defensively, every length checked, nothing trusted.

/// The append-only journal of a `CellContext`'s warnings and failed host calls, in a fixed area.
///
/// Layout: a magic word, the committed length of the log, then `slots` counts (one per failed
/// host call key, 8 bytes each), then the log: records `W<line>\n` (a warning) and
/// `F<slot>\t<plugin file>\t<hook>\t<first failure>\n` (a new failed host call key), tabs and
/// newlines inside a field made spaces. A count is a plain store at each failure; the log's
/// length is stored after its bytes, so that a reader never sees half a record.
package final class WarningJournal: @unchecked Sendable {  // written under its CellContext's lock only
    /// The bytes the journal's area takes.
    package static let capacity = 512 << 10
    /// The failed host call keys it counts; a later key is logged with no count kept (1).
    static let slots = 4096
    private static let magic: UInt32 = 0x434B_574A  // "CKWJ"
    private static let logStart = 8 + 8 * slots

    private let area: UnsafeMutableRawPointer
    private var length = 0

    /// A journal over `area` (`capacity` bytes), emptied.
    package init(area: UnsafeMutableRawPointer) {
        self.area = area
        Self.clear(area)
    }

    /// Empties the journal at `area` (the supervisor does it before each worker starts).
    package static func clear(_ area: UnsafeMutableRawPointer) {
        area.initializeMemory(as: UInt8.self, repeating: 0, count: logStart)
        area.storeBytes(of: magic, as: UInt32.self)
    }

    /// Logs a warning line.
    func warning(_ line: String) { append("W" + Self.field(line)) }

    /// Logs a new failed host call key at `slot`, its count 1.
    func failure(slot: Int, _ failure: FailedHostCalls) {
        append(
            "F\(slot)\t" + [failure.pluginFile, failure.hook, failure.first].map(Self.field).joined(separator: "\t"))
        count(slot: slot, failure.count)
    }

    /// Stores the count of the failed host call key at `slot`.
    func count(slot: Int, _ count: Int) {
        guard slot < Self.slots else { return }
        area.storeBytes(of: Int64(count), toByteOffset: 8 + 8 * slot, as: Int64.self)
    }

    private func append(_ record: String) {
        let bytes = Array((record + "\n").utf8)
        guard Self.logStart + length + bytes.count <= Self.capacity else { return }  // full: the rest dropped
        bytes.withUnsafeBytes { (area + Self.logStart + length).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        length += bytes.count
        area.storeBytes(of: UInt32(length), toByteOffset: 4, as: UInt32.self)
    }

    /// `text` with each tab, line feed and carriage return a space: on bytes, as a record is bytes.
    /// (By Characters, "\r\n" is one, equal to neither "\r" nor "\n", and went into the log whole,
    /// ending the record early; and breaking the text into Characters cost 56,000 instructions.)
    private static func field(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: Reading

    /// What one journal held: its warnings in order, and its failed host calls with their counts.
    package struct Contents: Sendable, Equatable {
        /// The warning lines, in the order logged.
        package var warnings: [String] = []
        /// The failed host calls, in the order first logged.
        package var failures: [FailedHostCalls] = []

        /// Contents of `warnings` and `failures` (none: an empty journal).
        package init(warnings: [String] = [], failures: [FailedHostCalls] = []) {
            (self.warnings, self.failures) = (warnings, failures)
        }
    }

    /// The journal at `area`, read as untrusted bytes: a record that does not parse is skipped.
    package static func read(_ area: UnsafeRawPointer) -> Contents {
        var contents = Contents()
        guard area.loadUnaligned(as: UInt32.self) == magic else { return contents }
        let length = min(Int(area.loadUnaligned(fromByteOffset: 4, as: UInt32.self)), capacity - logStart)
        let log = UnsafeRawBufferPointer(start: area + logStart, count: length)
        for record in log.split(separator: 0x0A) {
            let text = String(decoding: record.dropFirst(), as: UTF8.self)
            switch record.first {
            case UInt8(ascii: "W"): contents.warnings.append(text)
            case UInt8(ascii: "F"):
                let fields = text.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count == 4, let slot = Int(fields[0]), slot >= 0 else { continue }
                let stored = slot < slots ? area.loadUnaligned(fromByteOffset: 8 + 8 * slot, as: Int64.self) : 1
                contents.failures.append(
                    FailedHostCalls(
                        pluginFile: String(fields[1]), hook: String(fields[2]), count: Int(clamping: max(1, stored)),
                        first: String(fields[3])))
            default: continue
            }
        }
        return contents
    }

    /// The journals of the workers of one render merged, in the order they ran: each warning
    /// once, in the order first seen; failed host calls of the same plugin file and hook summed
    /// (workers draw disjoint rows), the first one's message kept. The lines a render prints.
    package static func merged(_ journals: [Contents]) -> [String] {
        var seen = Set<String>(), warnings: [String] = []
        var failures: [FailedHostCalls] = [], index: [String: Int] = [:]
        for journal in journals {
            for line in journal.warnings where seen.insert(line).inserted { warnings.append(line) }
            for failure in journal.failures {
                let key = failure.pluginFile + "\t" + failure.hook
                if let at = index[key] {
                    failures[at].count += failure.count
                } else {
                    index[key] = failures.count
                    failures.append(failure)
                }
            }
        }
        return warnings + failures.map(\.description)
    }
}
