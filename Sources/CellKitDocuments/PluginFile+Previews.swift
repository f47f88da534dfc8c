// A plugin's previews from both places they may be: its symbols and its preview file.

import CellKitDiscovery

extension PluginFile {
    /// The plugin's preview samples: those of its `CK_PREVIEW` symbols, then those of its preview file
    /// (`PreviewFile.path(forPlugin:)`), both read now, so a rebuilt plugin or an edited file is seen at
    /// once; with a warning for each sample left out. No plugin code runs. `cellkit inspect` and `check`
    /// show and run these; so may any command that draws a plugin's cells.
    package func previews() -> PluginPreviews {
        var previews = previewSymbols()
        PreviewFile.read(for: self, into: &previews)
        return previews
    }
}
