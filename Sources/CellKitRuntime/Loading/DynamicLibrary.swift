// The OS layer: the only three functions that talk to the dynamic linker.
//
// Contracts:
// - open(path) takes an absolute path and returns a handle or throws dlerror()'s
//   text. Flags are RTLD_NOW (every undefined symbol resolved now, so a missing
//   one fails here, not mid-table), RTLD_LOCAL (a plugin's symbols never satisfy
//   another's), RTLD_NODELETE (a library stays mapped forever: Swift plugins
//   register type metadata with the runtime and crash the host after dlclose).
//   There is no close.
// - symbol(handle, name) returns the address or nil; it never throws.
// - isOpen(path) tells, without opening it, whether the library is mapped.

import CellKitModel
import Foundation

enum DynamicLibrary {
    /// A handle from `open`; valid for the life of the process.
    struct Handle: @unchecked Sendable { let raw: UnsafeMutableRawPointer }

    static func open(_ path: String) throws(LoadError) -> Handle {
        precondition(path.hasPrefix("/"), "dlopen by absolute path only: a bare name would search LD_LIBRARY_PATH")
        _ = dlerror()
        guard let raw = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw LoadError(message: dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        return Handle(raw: raw)
    }

    static func symbol(_ handle: Handle, _ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle.raw, name)
    }

    static func isOpen(_ path: String) -> Bool {
        guard let raw = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(raw)  // drops only the reference RTLD_NOLOAD just took
        return true
    }

    struct LoadError: Error { let message: String }
}
