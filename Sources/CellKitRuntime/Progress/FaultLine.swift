// The one line that names a plugin fault, built from a progress record into memory
// prepared in advance: a signal handler builds it too, so no allocation, no lock,
// nothing but loads and stores (async-signal-safe).

import CellKitDiscovery
import CellKitModel
import Glibc

/// How plugin code ended the process (or the wait for it).
package enum FaultOutcome: Sendable, Equatable {
    /// Killed by a signal (a crash, or sent).
    case signal(Int32)
    /// `exit()` with a status.
    case exit(Int32)
    /// No progress within the time, in tenths of a second.
    case timeout(tenths: Int)
    /// The worker's channel to its supervisor was closed, replaced or written to by another
    /// hand (a plugin): what was wrong.
    case channel(String)
    /// The sandbox refused a system call: what it would have done ("start a process (fork)").
    /// The worker goes on; the call failed with EPERM.
    case refused(String)
}

/// A line such as `libcrashy.so: customizeCellForCrashy crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])`.
package enum FaultLine {
    /// Writes the line for `outcome` under `record` into `buffer` (at most `capacity` bytes,
    /// newline included); returns its length. Bytes of names that are not printable ASCII are
    /// written as `?`, so nothing reaches a terminal raw.
    package static func write(
        _ record: UnsafePointer<HookProgress.Header>, _ outcome: FaultOutcome,
        into buffer: UnsafeMutablePointer<UInt8>, capacity: Int
    ) -> Int {
        write(record, outcome, running: false, into: buffer, capacity: capacity)
    }

    /// `write(_:_:into:capacity:)`, saying "was running" in place of the outcome when `running`
    /// (the plugin code that ran while another library crashed).
    static func write(
        _ record: UnsafePointer<HookProgress.Header>, _ outcome: FaultOutcome, running: Bool,
        into buffer: UnsafeMutablePointer<UInt8>, capacity: Int
    ) -> Int {
        var line = Writer(base: buffer, capacity: capacity - 1)
        let raw = UnsafeRawPointer(record)
        let header = record.pointee
        let phase = header.helperFault != 0 ? .host : HookProgress.Phase(rawValue: header.phase) ?? .host
        switch phase {
        case .hook:
            let slot = Int(header.typeSlot)
            if slot >= 0, slot < Int(header.typeCount), slot < HookProgress.maxTypes {
                let entry = raw + HookProgress.typesOffset + slot * HookProgress.entrySize
                line.add(cString: entry + HookProgress.entryFileOffset)
                line.add(": ")
                line.add(literal: prefix(header.hook))
                line.add(cString: entry)
            } else {
                line.add("a plugin: ")
                line.add(literal: prefix(header.hook))
                line.add("<unknown cell type>")
            }
        case .constructor, .pluginInit:
            line.add(cString: raw + HookProgress.loadFileOffset)
            line.add(phase == .constructor ? ": its constructor" : ": cellkit_plugin_init")
        case .host:
            let helper = header.helperFault != 0
            line.add(
                helper ? "cellkit: the render, reading a data file ahead," : "cellkit: the render, outside plugin code,"
            )
        }
        line.add(" ")
        switch outcome {
        case _ where running: line.add("was running")
        case .signal(let signal):
            if isCrash(signal), header.memoryExceeded > 0 {
                line.add("exceeded its memory limit of ")
                line.add(Int(header.memoryExceeded))
                line.add(" MiB (")
                line.add(signalName(signal), number: signal)
                line.add("; --worker-memory)")
            } else if isCrash(signal) {
                line.add("crashed (")
                line.add(signalName(signal), number: signal)
                line.add(")")
            } else {
                line.add("was killed by ")
                line.add(signalName(signal), number: signal)
            }
        case .exit(let status):
            line.add("exited with status ")
            line.add(Int(status))
        case .channel:
            line.add(
                "broke the worker's channel to cellkit (it closed, replaced or wrote to a descriptor it does not own)")
        case .refused(let act):
            line.add("tried to ")
            for byte in act.utf8 { line.add(byte: byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?")) }
            line.add(": refused by the sandbox")
        case .timeout(let tenths):
            line.add("did not return within ")
            line.add(tenths / 10)
            if tenths % 10 != 0 {
                line.add(".")
                line.add(tenths % 10)
            }
            line.add(" s")
        }
        switch phase {
        case .constructor, .pluginInit:
            line.add(" while loading cell type ")
            line.add(cString: raw + HookProgress.loadIdentifierOffset)
            if header.row >= 0 {
                line.add(" for ")
                RowName.write(section: Int(header.section), row: Int(header.row), author: true) { line.add(byte: $0) }
            }
        case .hook:
            line.add(" at ")
            RowName.write(section: Int(header.section), row: Int(header.row), author: true) { line.add(byte: $0) }
        case .host:
            line.add(" after ")
            line.add(Int(header.rowsDone))
            line.add(" rows")
        }
        buffer[line.count] = 0x0A
        return line.count + 1
    }

    /// The line as a string, without its newline (for a supervisor, not a signal handler). A
    /// crash placed in a library other than the running hook's (`FaultBlame`) names that library
    /// first: `libthreads.so crashed (SIGSEGV) in its own code, while libfoo.so: …`.
    package static func text(_ record: UnsafePointer<HookProgress.Header>, _ outcome: FaultOutcome) -> String {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 2048)
        defer { buffer.deallocate() }
        let blamed: String? = if case .signal = outcome { blamedLibrary(record) } else { nil }
        let count = write(record, outcome, running: blamed != nil, into: buffer, capacity: 2048)
        let line = String(decoding: UnsafeBufferPointer(start: buffer, count: count - 1), as: UTF8.self)
        guard let blamed, case .signal(let signal) = outcome else { return line }
        let safe = String(
            blamed.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        let name = signalName(signal)
        return
            "\(safe) crashed (\(name.utf8CodeUnitCount > 0 ? "\(name)" : "signal \(signal)")) in its own code; at that moment \(line)"
    }

    /// The library a crash was placed in, when it is not the running hook's own plugin; nil otherwise.
    package static func blamedLibrary(_ record: UnsafePointer<HookProgress.Header>) -> String? {
        guard let library = HookProgress.faultLibraryName(record) else { return nil }
        switch HookProgress.Phase(rawValue: record.pointee.phase) ?? .host {
        case .hook where HookProgress.pluginFile(record, slot: Int(record.pointee.typeSlot)) == library: return nil
        case .constructor where HookProgress.loadingFile(record) == library: return nil
        case .pluginInit where HookProgress.loadingFile(record) == library: return nil
        default: return library
        }
    }

    /// Whether `signal` is one a fault raises (rather than one sent to stop the process).
    package static func isCrash(_ signal: Int32) -> Bool {
        switch signal {
        case SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS: true
        default: false
        }
    }

    /// The prefix of the hook whose wire code is `code` (the hook table's), or "<unknown hook>"
    /// for a code no hook has. Allocates nothing: the table's prefixes are literals.
    package static func prefix(_ code: Int32) -> String {
        HookKind(wireCode: code)?.prefix ?? "<unknown hook>"
    }

    /// The signal's name ("SIGSEGV"); an empty string for one without a name here.
    package static func signalName(_ signal: Int32) -> StaticString {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGFPE: "SIGFPE"
        case SIGSYS: "SIGSYS"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGPIPE: "SIGPIPE"
        case SIGXCPU: "SIGXCPU"
        case SIGXFSZ: "SIGXFSZ"
        default: ""
        }
    }

    /// Appends to a fixed buffer, dropping what does not fit.
    struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0

        init(base: UnsafeMutablePointer<UInt8>, capacity: Int) { (self.base, self.capacity) = (base, capacity) }

        mutating func add(byte: UInt8) {
            guard count < capacity else { return }
            base[count] = byte
            count += 1
        }

        mutating func add(_ text: StaticString) {
            let start = text.utf8Start
            for i in 0..<text.utf8CodeUnitCount { add(byte: start[i]) }
        }

        /// A string held in constant memory (a literal, such as a hook table prefix): its
        /// bytes are read in place, with no allocation.
        mutating func add(literal text: String) {
            for byte in text.utf8 { add(byte: byte) }
        }

        /// A signal's name, or "signal N".
        mutating func add(_ name: StaticString, number: Int32) {
            if name.utf8CodeUnitCount > 0 {
                add(name)
            } else {
                add("signal ")
                add(Int(number))
            }
        }

        /// A C string of at most 256 bytes, printable ASCII kept, anything else as `?`.
        mutating func add(cString: UnsafeRawPointer) {
            let bytes = cString.assumingMemoryBound(to: UInt8.self)
            var i = 0
            while i < HookProgress.nameLength, bytes[i] != 0 {
                let byte = bytes[i]
                add(byte: byte >= 0x20 && byte < 0x7F ? byte : 0x3F)
                i += 1
            }
        }

        mutating func add(_ number: Int) {
            if number < 0 {
                add(byte: 0x2D)
                add(number == Int.min ? Int.max : -number)
                return
            }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, room for 20 digits
            var n = UInt64(number), k = 0
            withUnsafeMutableBytes(of: &digits) { place in
                repeat {
                    place[k] = UInt8(n % 10) + 0x30
                    n /= 10
                    k += 1
                } while n > 0
            }
            withUnsafeBytes(of: &digits) { place in
                while k > 0 {
                    k -= 1
                    add(byte: place[k])
                }
            }
        }
    }
}
