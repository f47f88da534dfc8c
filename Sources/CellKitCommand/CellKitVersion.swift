// The version of `cellkit`, shown by `cellkit --version` and in `--help`, and written into the
// installed cellkit.pc (`cellkit sdk install`).

import CellKit

/// This release of CellKit.
enum CellKitVersion {
    /// The version, as semantic versioning writes it. Raise it with every release; the plugin ABI
    /// has a version of its own (CK_ABI_MAJOR and CK_ABI_MINOR in cellkit.h).
    static let current = "0.1.0"

    /// What `cellkit --version` prints: the version and the plugin ABI this host loads.
    static var described: String {
        "\(current) (plugin ABI \(PluginFile.hostABI.major).\(PluginFile.hostABI.minor))"
    }
}
