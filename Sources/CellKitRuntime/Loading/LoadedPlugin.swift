// Loading one plugin: trust check, dlopen, the ABI handshake, the optional init.

import CCellKit
import CellKitDiscovery
import CellKitModel
import CellKitText
import Foundation

/// A plugin mapped into the process, its ABI checked and its init run.
final class LoadedPlugin: @unchecked Sendable {  // immutable after init
    let file: PluginFile
    let handle: DynamicLibrary.Handle
    /// What the plugin's `cellkit_plugin_init` stored, passed to hooks that declare `context`.
    let context: UnsafeMutableRawPointer?

    /// Loads `file`. Every failure names the file and says what to do.
    init(_ file: PluginFile, allowUnsafePermissions: Bool) throws(CellKitError) {
        self.file = file
        let path = file.path
        guard file.isUsable else { throw .pluginUnusable(path: path, problems: file.problems) }
        // In a sealed worker (its user namespace hides owners) the pin made before it closed
        // judges; elsewhere the ownership rule, right before dlopen.
        if let decided = DecidedTrust.problem(forPlugin: path) {
            if let problem = decided { throw .untrusted(path: problem.path, reason: problem.reason) }
        } else if !allowUnsafePermissions, let problem = FileTrust.problem(forPlugin: path) {
            throw .untrusted(path: problem.path, reason: problem.reason)
        }
        HookProgress.loading(path, .constructor)  // a crash in its constructors names it
        defer { HookProgress.loaded() }
        do { handle = try DynamicLibrary.open(path) } catch { throw .loadFailed(path: path, reason: error.message) }
        HookProgress.loaded()
        if let symbol = DynamicLibrary.symbol(handle, CK_DESCRIPTOR_SYMBOL) {
            HookProgress.registerLibrary(containing: symbol, path: path)  // a crash in its code names it
        }
        try Self.checkDescriptor(handle, path: path)
        HookProgress.loading(path, .pluginInit)
        context = try Self.runInit(handle, path: path)
    }

    /// The file may have changed since discovery read it: check the mapped descriptor too.
    private static func checkDescriptor(_ handle: DynamicLibrary.Handle, path: String) throws(CellKitError) {
        guard let raw = DynamicLibrary.symbol(handle, CK_DESCRIPTOR_SYMBOL) else {
            throw .loadFailed(
                path: path,
                reason:
                    "the loaded library has no '\(CK_DESCRIPTOR_SYMBOL)' descriptor (did the file change after discovery?)"
            )
        }
        let bytes = Data(bytes: raw, count: MemoryLayout<ck_plugin_descriptor>.size)
        switch PluginFile.decodeDescriptor(bytes) {
        case .failure(let reason): throw .loadFailed(path: path, reason: reason.text)
        case .success(let descriptor):
            let problems = PluginFile.abiProblems(descriptor)
            guard problems.isEmpty else { throw .pluginUnusable(path: path, problems: problems) }
        }
    }

    /// Runs `cellkit_plugin_init` if the plugin has one; returns the context it stored.
    private static func runInit(_ handle: DynamicLibrary.Handle, path: String) throws(CellKitError)
        -> UnsafeMutableRawPointer?
    {
        guard let raw = DynamicLibrary.symbol(handle, CK_INIT_SYMBOL) else { return nil }
        let initialize = unsafeBitCast(raw, to: ck_plugin_init_fn.self)
        var context: UnsafeMutableRawPointer?
        let (status, message) = InitMessages.collecting { initialize(HostTable.pointer, &context) }
        guard status == CK_OK else {
            let why = message.map { ": " + TextSanitizer.visible($0) } ?? " (status \(status.rawValue))"
            throw .loadFailed(path: path, reason: "\(CK_INIT_SYMBOL) refused to start\(why)")
        }
        return context
    }

    /// The address of an exported symbol that discovery saw.
    func address(of symbol: String) throws(CellKitError) -> UnsafeMutableRawPointer {
        guard let raw = DynamicLibrary.symbol(handle, symbol) else {
            throw .loadFailed(
                path: file.path, reason: "dlsym found no '\(symbol)' though the file's symbol table lists it")
        }
        return raw
    }
}
