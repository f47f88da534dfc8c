// Identifiers to cell types, shared by every table. A plugin is opened the
// first time one of its identifiers is resolved, and never if none is.

import CellKitDiscovery
import CellKitModel
import Foundation
import Synchronization

/// The cell types available to a program: discovery's catalog plus lazy loading.
/// Safe to share between threads; resolve identifiers once, then use the CellType.
public final class CellRegistry: Sendable {
    /// What discovery found.
    public let catalog: Catalog
    /// Unique in the process, so a queue can tell a slot from another registry.
    let id = CellRegistry.count.add(1, ordering: .relaxed).newValue
    private static let count = Atomic<Int>(0)
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var loaded: [Int: LoadedPlugin] = [:]  // by index in catalog.plugins
        var types: [CellIdentifier: CellType] = [:]
        var bySlot: [CellType] = []
        var failures: [Int: CellKitError] = [:]  // a plugin that failed to load is not retried

        mutating func add(_ type: CellType) {
            types[type.identifier] = type
            bySlot.append(type)
        }
    }

    /// Whether every declared parameter list is called through libffi, none in registers (for
    /// benchmarks that measure libffi).
    let declaredListsThroughFFI: Bool

    /// A registry over what `catalog` found, plus the built-in types; loads nothing yet.
    public convenience init(catalog: Catalog) {
        self.init(catalog: catalog, declaredListsThroughFFI: false)
    }

    /// A registry over what `catalog` found that calls every declared parameter list through
    /// libffi when `declaredListsThroughFFI` (for benchmarks that measure libffi).
    package init(catalog: Catalog, declaredListsThroughFFI: Bool) {
        self.catalog = catalog
        self.declaredListsThroughFFI = declaredListsThroughFFI
        state.withLock { state in
            for name in BuiltinCells.names {
                let identifier = try! CellIdentifier(name)
                state.add(
                    CellType(
                        builtin: identifier, style: BuiltinCells.style(of: name)!, slot: state.bySlot.count,
                        registryID: id, customize: BuiltinCells.customize))
            }
        }
    }

    /// Discovers plugins with `options` and makes a registry over them. The default options have
    /// an empty search path and read no environment: only the built-in types
    /// (`DiscoveryOptions.fromEnvironment(pluginPaths:allowUnsafePermissions:useCache:cacheFolder:environment:)`
    /// opts in to the `cellkit` tool's).
    public convenience init(options: DiscoveryOptions = DiscoveryOptions()) {
        self.init(catalog: Catalog(options: options))
    }

    /// The cell type for `name`, loading its plugin on first use.
    public func cellType(named name: String) throws(CellKitError) -> CellType {
        let identifier: CellIdentifier
        do { identifier = try CellIdentifier(name) } catch { throw .invalidIdentifier(error) }
        return try cellType(identifier)
    }

    /// The cell type for `identifier`, loading its plugin on first use.
    public func cellType(_ identifier: CellIdentifier) throws(CellKitError) -> CellType {
        if let resolved = state.withLock({ $0.types[identifier] }) { return resolved }
        guard let registration = catalog.registration(for: identifier) else {
            throw catalog.unknownIdentifierError(identifier.name, including: BuiltinCells.names)
        }
        let result: Result<CellType, CellKitError> = state.withLock { state in
            if let type = state.types[identifier] { return .success(type) }
            do throws(CellKitError) {
                let plugin = try load(registration.pluginIndex, &state)
                let type = try CellType(
                    registration.declaration, in: plugin, slot: state.bySlot.count, registryID: id,
                    registers: !declaredListsThroughFFI)
                state.add(type)
                return .success(type)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The near misses of the plugin that provides `type` that concern it (see
    /// `NearMiss.concerns(_:)`), such as `customizeCellForfoo` beside `initCellForFoo` or a
    /// hidden `customizeCellForFoo`: hooks its author probably meant for it, which never run.
    /// Empty for a built-in type and a type of another registry. `TableRenderer` warns of
    /// them the first time it resolves the type.
    public func nearMisses(for type: CellType) -> [NearMiss] {
        guard !type.isBuiltin, let registration = catalog.registration(for: type.identifier) else { return [] }
        guard catalog.plugin(at: registration.pluginIndex).path == type.pluginPath else { return [] }
        // Diagnosed now, for this plugin only (and kept in the registry cache): discovery does not.
        return catalog.nearMisses(ofPlugin: registration.pluginIndex).filter { $0.concerns(type.identifier) }
    }

    /// The type a slot stands for, or nil if this registry did not make the slot.
    package func cellType(at slot: ReuseSlot) -> CellType? {
        guard slot.registryID == id else { return nil }
        return state.withLock { slot.index < $0.bySlot.count ? $0.bySlot[slot.index] : nil }
    }

    /// Whether the plugin at `path` has been opened by this process.
    package func isLoaded(pluginAt path: String) -> Bool { DynamicLibrary.isOpen(path) }

    private func load(_ index: Int, _ state: inout State) throws(CellKitError) -> LoadedPlugin {
        if let plugin = state.loaded[index] { return plugin }
        if let failure = state.failures[index] { throw failure }
        do {
            let plugin = try LoadedPlugin(
                catalog.plugin(at: index), allowUnsafePermissions: catalog.options.allowUnsafePermissions)
            state.loaded[index] = plugin
            return plugin
        } catch {
            state.failures[index] = error
            throw error
        }
    }
}
