// The runtime's public API names discovery's types (`Catalog`, `DiscoveryOptions`,
// `CellKitError`, `SearchPath`), so whoever imports the runtime gets discovery too.

@_exported import CellKitDiscovery
