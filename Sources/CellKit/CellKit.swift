// CellKit for embedders who want everything: one import re-exports the modules,
// bottom to top (the order Scripts/layers.txt declares and CI checks).
//
// - CellKitModel: the values the runtime and documents share (cell attributes,
//   row data, stylesheets).
// - CellKitText: text widths, line breaking, terminal-safe text.
// - CellKitDiscovery: the search path walked without loading anything: the naming rule,
//   the ELF reader, file trust, the registry cache, the catalog.
// - CellKitRuntime: loading, dispatch, the registry, cells and the cell-creation routine:
//   the plugin host, with nothing that parses documents or draws.
// - CellKitDocuments: table documents, stylesheets and asset catalogs as data, streamed rows.
// - CellKitRendering: data sources, layout, the renderer and its formats, output, in one process.
// - CellKitSupervision: worker processes, the sandbox, and `DocumentRender`, the isolated render
//   that keeps a crashing or hostile plugin out of the host.
//
// `cellkit check` (CellKitCheck) and `cellkit browse` (CellKitBrowse) are the command line's own.

@_exported import CellKitDiscovery
@_exported import CellKitDocuments
@_exported import CellKitModel
@_exported import CellKitRendering
@_exported import CellKitRuntime
@_exported import CellKitSupervision
@_exported import CellKitText
