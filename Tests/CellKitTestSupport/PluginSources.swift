// C sources of small plugins that tests of several modules build (discovery, the runtime, the command).

/// A minimal valid plugin with one cell type.
public func minimalPlugin(_ identifier: String, name: String = "Minimal", abi: (Int, Int)? = nil) -> String {
    let descriptor =
        abi.map { major, minor in
            "CK_EXPORT const ck_plugin_descriptor cellkit_plugin = {{'C','K','P','L','U','G','I','N'}, \(major), \(minor), \"\(name)\", \"9.9\", \"hand-made\"};"
        } ?? "CK_PLUGIN(\"\(name)\", \"0.1.0\", \"a test plugin\");"
    return """
        #include "cellkit.h"
        \(descriptor)
        CK_EXPORT void customizeCellFor\(identifier)(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_text(ck_text_label(cell), "\(name)");
        }
        """
}
