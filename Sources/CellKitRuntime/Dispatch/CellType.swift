// An identifier resolved to callable hooks, once. The per-row path only indexes
// these: no string building, hashing or dlsym.

import CCellKit
import CLibraries
import CellKitDiscovery
import CellKitModel

/// One hook, ready to call: through a typed C pointer, or through libffi.
@usableFromInline enum Hook: @unchecked Sendable {
    @usableFromInline typealias Standard = @convention(c) (UnsafeMutablePointer<ck_cell>?, ck_index_path) -> Void
    @usableFromInline typealias StandardHeight =
        @convention(c) (UnsafeMutablePointer<ck_cell>?, ck_index_path) -> Double

    case standard(Standard)
    case standardHeight(StandardHeight)
    /// A declared parameter list of at most six words (`RegisterHook`).
    case registers(RegisterHook)
    case ffi(FFIHook)
    /// A hook written in Swift inside the host (the built-in cell types).
    case builtin(@Sendable (Cell) -> Void)

    /// Runs the hook on `cell`; returns its value (height hooks) or 0.
    @inline(__always)
    func callAsFunction(_ cell: Cell) -> Double {
        switch self {
        case .standard(let f): f(cell.handle, cell.indexPath.c); return 0
        case .standardHeight(let f): return f(cell.handle, cell.indexPath.c)
        case .registers(let hook): return hook.call(cell)
        case .ffi(let hook): return hook.call(cell)
        case .builtin(let body): body(cell); return 0
        }
    }
}

/// A resolved cell type as a plain value: what a table's per-row loop passes to
/// `CellQueue.dequeueCell`. Passing the `CellType` object instead costs the caller
/// an atomic retain and release per row, more than the routine's own work.
/// Valid with any queue on the registry that resolved the type.
public struct ReuseSlot: Sendable, Hashable {
    /// The type's position in its registry.
    public let index: Int
    @usableFromInline let registryID: Int
}

/// A cell type: an identifier with its hooks resolved in a loaded plugin.
public final class CellType: Sendable {
    /// The identifier rows name this type by.
    public let identifier: CellIdentifier
    /// The plugin file that provides it, or "built-in".
    public let pluginPath: String
    /// Its position in the registry, which indexes each queue's pools.
    package let slot: Int
    /// The registry that resolved it: slots mean something only within one registry.
    let registryID: Int
    // Read through `hook(_:)` only, whose switch has no `default:`: a new hook kind fails to
    // compile there until it has a slot here, and so in each place that reads one.
    private let initCell: Hook?
    private let customizeCell: Hook?
    private let heightForCell: Hook?
    private let prepareForReuse: Hook?
    private let layoutSubviews: Hook?
    /// Whether the plugin was built against a header (1.3 on) where a row height of
    /// `CK_AUTOMATIC_DIMENSION` means as tall as the content; before, -1 was ignored with a warning.
    package let knowsAutomaticDimension: Bool
    /// Whether `data_bool` writes the plugin one byte (a `bool`, ABI 1.4 on) rather than an
    /// `int32_t` (`ck_data_bool_out` in cellkit.h): its descriptor's minor version decides.
    package let writesBoolByte: Bool
    /// Whether the type has a customize hook: without one every row shows only what init set.
    package var customizes: Bool { customizeCell != nil }

    /// The type `declaration` names in `plugin`; its declared lists in registers where they fit and
    /// `registers` allows.
    init(
        _ declaration: CellTypeDeclaration, in plugin: LoadedPlugin, slot: Int, registryID: Int, registers: Bool = true
    ) throws(CellKitError) {
        identifier = declaration.identifier
        pluginPath = plugin.file.path
        knowsAutomaticDimension = plugin.file.descriptor.abiMinor >= 3
        writesBoolByte = plugin.file.descriptor.abiMinor >= Int(CK_DATA_BOOL_BYTE_MINOR)
        (self.slot, self.registryID) = (slot, registryID)
        func resolve(_ kind: HookKind) throws(CellKitError) -> Hook? {
            guard let hook = declaration.hook(kind) else { return nil }
            return try Self.resolve(hook, in: plugin, registers: registers)
        }
        initCell = try resolve(.initCell)
        customizeCell = try resolve(.customizeCell)
        heightForCell = try resolve(.heightForCell)
        prepareForReuse = try resolve(.prepareCellForReuse)
        layoutSubviews = try resolve(.layoutSubviews)
    }

    /// A built-in type: `style` set when a cell is made, `customize` run every time.
    init(
        builtin identifier: CellIdentifier, style: CellStyle, slot: Int, registryID: Int,
        customize: @escaping @Sendable (Cell) -> Void
    ) {
        self.identifier = identifier
        pluginPath = "built-in"
        knowsAutomaticDimension = true
        writesBoolByte = Cell.hostWritesBoolByte
        (self.slot, self.registryID) = (slot, registryID)
        initCell = .builtin { $0.style = style }
        customizeCell = .builtin(customize)
        heightForCell = nil
        prepareForReuse = nil
        layoutSubviews = nil
    }

    /// This type as a plain value for a table's per-row loop (see `ReuseSlot`).
    public var reuseSlot: ReuseSlot { ReuseSlot(index: slot, registryID: registryID) }

    /// Whether this type is one of the host's built-ins rather than a plugin's.
    public var isBuiltin: Bool { pluginPath == "built-in" }

    private static func resolve(_ hook: HookDeclaration, in plugin: LoadedPlugin, registers: Bool) throws(CellKitError)
        -> Hook
    {
        let address = try plugin.address(of: hook.symbol)
        if hook.signature.isStandard(for: hook.kind) {
            return hook.kind.returnsValue
                ? .standardHeight(unsafeBitCast(address, to: Hook.StandardHeight.self))
                : .standard(unsafeBitCast(address, to: Hook.Standard.self))
        }
        if registers, let hook = RegisterHook(function: address, signature: hook.signature, context: plugin.context) {
            return .registers(hook)
        }
        if let failure = ck_library_load(CK_LIBRARY_FFI) {  // opened on first use (CLibraries)
            throw .badHook(path: plugin.file.path, hook: hook.symbol, reason: String(cString: failure))
        }
        do {
            return .ffi(try FFIHook(function: address, signature: hook.signature, context: plugin.context))
        } catch {
            throw .badHook(
                path: plugin.file.path, hook: hook.symbol,
                reason: "libffi could not prepare \"\(hook.signature)\" (ffi_status \(error.status))")
        }
    }

    /// The resolved hook of `kind`, or nil if the type has none: the one way to a type's hooks
    /// (the routine's, `HookProbe`'s). A new hook kind needs its own slot here (the switch has no
    /// `default:`).
    @inline(__always)
    func hook(_ kind: HookKind) -> Hook? {
        switch kind {
        case .initCell: initCell
        case .customizeCell: customizeCell
        case .heightForCell: heightForCell
        case .prepareCellForReuse: prepareForReuse
        case .layoutSubviews: layoutSubviews
        }
    }

    /// Which hooks this type has, in HookKind order.
    public var hookKinds: [HookKind] { HookKind.allCases.filter { hook($0) != nil } }
}
