// What a catalog's answers depend on, digested as discovery walks: each plugin file's path and
// key, the rejections with their reasons, the search path. `cellkit list` keeps its output
// under this digest (CellKitCommand's DerivedOutput.swift).

import CellKitModel

/// A running digest of what a catalog's answers depend on; nil once something was read that
/// nothing identifies (a file that could not be keyed), or when no digest is wanted.
package struct InputDigest {
    package private(set) var value: UInt64? = 0x6365_6C6C_6B69_7431  // "cellkit1"

    /// An empty digest.
    package init() {}

    /// Adds `bytes` (their length too, so that pieces cannot run together).
    package mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let value { self.value = Hash64.of(bytes, seed: value) }
    }

    /// Adds the text's bytes.
    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
    }

    /// Adds a file's path and key: its contents as discovery reads them.
    package mutating func add(path: UnsafeBufferPointer<UInt8>, key: RegistryCache.FileKey) {
        add(path)
        withUnsafeBytes(of: key) { add($0.bindMemory(to: UInt8.self)) }
    }

    /// Marks the digest unknowable (something was read that nothing identifies) or unwanted:
    /// each `add` then does nothing.
    package mutating func spoil() { value = nil }
}
