// Errors a caller of the registry or the routine can meet. Each names the file
// or identifier concerned and says how to fix it.

import CellKitModel

/// A failure to resolve an identifier to a working cell type.
public enum CellKitError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidIdentifier(IdentifierError)
    case unknownIdentifier(name: String, nearest: CellIdentifier?, searched: [String])
    case pluginUnusable(path: String, problems: [String])
    case untrusted(path: String, reason: String)
    case loadFailed(path: String, reason: String)
    case badHook(path: String, hook: String, reason: String)

    public var description: String {
        switch self {
        case .invalidIdentifier(let error): return error.description
        case .unknownIdentifier(let name, let nearest, let searched):
            let hint = nearest.map { " Did you mean '\($0)'?" } ?? ""
            let places = searched.isEmpty ? "an empty search path" : searched.joined(separator: ", ")
            return "no plugin provides cell identifier '\(name)'.\(hint) Searched: \(places). Run `cellkit list` to see what is registered."
        case .pluginUnusable(let path, let problems):
            return "\(path): plugin cannot be used: " + problems.joined(separator: "; ")
        case .untrusted(let path, let reason): return "\(path): \(reason)"
        case .loadFailed(let path, let reason): return "\(path): cannot load: \(reason)"
        case .badHook(let path, let hook, let reason): return "\(path): hook \(hook): \(reason)"
        }
    }
}
