// A C plugin exporting one hook of the hook table (`HookKind`) with its standard signature: what
// the hook table's tests build, in discovery (found, listed, inspected, checked) and in the runtime
// (dispatched).

import CellKitDiscovery

package enum HookTablePlugin {
    /// The C type of a hook table result.
    package static func cType(_ result: HookResult) -> String {
        switch result {
        case .void: "void"
        case .double: "double"
        case .float: "float"
        case .int32: "int32_t"
        }
    }

    /// A C plugin exporting `kind`'s hook for `identifier` with its standard signature (and, if
    /// `kind` does not register a type by itself, the first hook that does), and the same hook
    /// with its prefix's first letter in the wrong case.
    package static func source(_ kind: HookKind, identifier: String) -> String {
        func hook(_ name: String, _ kind: HookKind) -> String {
            let result = kind.row.result
            let body = result == .void ? "(void)c; (void)p;" : "(void)c; (void)p; return 0;"
            return "CK_EXPORT \(cType(result)) \(name)(ck_cell *c, ck_index_path p) { \(body) }"
        }
        var lines = ["#include \"cellkit.h\"", "CK_PLUGIN(\"HookTable\", \"0.1.0\", \"one hook of the table\");"]
        lines.append(hook(kind.prefix + identifier, kind))
        if !kind.row.registersType, let registering = HookKind.registeringType.first {
            lines.append(hook(registering.prefix + identifier, registering))
        }
        lines.append(hook(misspelt(kind) + identifier, kind))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `kind`'s prefix with its first letter's case changed: `InitCellFor`.
    package static func misspelt(_ kind: HookKind) -> String {
        let first = kind.prefix.prefix(1)
        let swapped = first == first.lowercased() ? first.uppercased() : first.lowercased()
        return swapped + kind.prefix.dropFirst()
    }
}
