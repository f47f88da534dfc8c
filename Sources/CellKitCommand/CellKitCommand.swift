// `cellkit`: render tables of cells from shared-library plugins; list and inspect the plugins.

import ArgumentParser

@main
struct CellKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellkit",
        abstract: "Table cells from shared-library plugins: render tables that mix them, list what is registered, inspect a plugin.",
        discussion: """
            Plugins are .so files exporting initCellFor<Id>, customizeCellFor<Id>, heightForCellFor<Id> \
            and prepareCellForReuseFor<Id>. They are searched for in: --plugin-path folders, then \
            CELLKIT_PLUGIN_PATH (colon-separated), then the folder of the cellkit executable, then \
            $XDG_DATA_HOME/cellkit/plugins (default ~/.local/share/cellkit/plugins). The first plugin \
            to offer an identifier wins.
            """,
        subcommands: [RenderCommand.self, ListCommand.self, InspectCommand.self])
}
