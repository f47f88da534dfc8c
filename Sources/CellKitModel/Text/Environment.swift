// The environment variables CellKit reads, read one by one: `ProcessInfo.processInfo.environment`
// copies every variable into a new dictionary at each call (BENCHMARKS.md, "Measurements behind
// the code": Environment).

import Glibc

/// Reads named environment variables of this process.
package enum Environment {
    /// The variables among `names` that are set, by name.
    package static func values(_ names: [String]) -> [String: String] {
        // Made with room for every name: growing it went through the standard library's own copy of
        // the resize, which looks the dictionary's type up by name, a walk of every conformance record
        // in the binary (394,000 instructions at start-up: BENCHMARKS.md, "Measurements behind the
        // code": Environment).
        var values = [String: String](minimumCapacity: names.count)
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// The variable `name`, or nil when it is not set.
    package static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
