// Errors a caller of the registry or the routine can meet. Each names the file
// or identifier concerned and says how to fix it.

import CellKitModel

/// A failure to resolve an identifier to a working cell type.
public enum CellKitError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The name breaks the naming rule; nothing was looked up.
    case invalidIdentifier(IdentifierError)
    /// No built-in type and no usable plugin offers `name`. `nearest` is the closest known
    /// identifier, if one is close; `searched` the paths of the search path, in order;
    /// `reasons` what discovery knows of it, one sentence each (see
    /// `Catalog.unavailabilityReasons(for:)`): plugins that offer it but cannot be used,
    /// near misses that concern it, files on the path that were refused or skipped.
    case unknownIdentifier(name: String, nearest: CellIdentifier?, searched: [String], reasons: [String] = [])
    /// Discovery found the plugin unusable (`problems` are `PluginFile.problems`), or the
    /// loaded library's descriptor fails the ABI check.
    case pluginUnusable(path: String, problems: [String])
    /// The plugin file, or a folder holding it, is writable by its group or others, or owned
    /// by neither root nor the current user. `path` is the one at fault; `reason` has the fix.
    case untrusted(path: String, reason: String)
    /// `dlopen` failed, the loaded library has no valid descriptor, its `cellkit_plugin_init`
    /// returned an error, or `dlsym` missed a hook.
    case loadFailed(path: String, reason: String)
    /// libffi could not prepare the call interface of the hook `hook` for its signature.
    case badHook(path: String, hook: String, reason: String)

    /// A message fit for a user: it names the file or identifier and says how to fix the problem.
    public var description: String {
        switch self {
        case .invalidIdentifier(let error): return error.description
        case .unknownIdentifier(let name, let nearest, let searched, let reasons):
            let why = reasons.map { " " + ($0.hasSuffix(".") ? $0 : $0 + ".") }.joined()
            let hint = nearest.map { " Did you mean '\($0)'?" } ?? ""
            let places = searched.isEmpty ? "an empty search path" : searched.joined(separator: ", ")
            return
                "no usable plugin provides cell identifier '\(name)'.\(why)\(hint) Searched: \(places). Run `cellkit list` to see what is registered."
        case .pluginUnusable(let path, let problems):
            return "\(path): plugin cannot be used: " + problems.joined(separator: "; ")
        case .untrusted(let path, let reason): return "\(path): \(reason)"
        case .loadFailed(let path, let reason): return "\(path): cannot load: \(reason)"
        case .badHook(let path, let hook, let reason): return "\(path): hook \(hook): \(reason)"
        }
    }
}
