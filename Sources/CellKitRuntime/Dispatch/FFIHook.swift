// Hooks with a declared parameter list, called through libffi. The call
// interface (ffi_cif) is prepared once per hook; a call only fills in values.

import CCellKit
import CLibraries
import CellKitDiscovery
import CellKitModel

/// A prepared libffi call to one hook.
@usableFromInline final class FFIHook: @unchecked Sendable {  // immutable after init; calls use only stack memory
    let signature: HookSignature
    private let function: @convention(c) () -> Void
    private let context: UnsafeMutableRawPointer?
    private let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let indexPathType = UnsafeMutablePointer<ffi_type>.allocate(capacity: 1)
    private let indexPathFields = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: 3)
    // Where each argument sits in `Values`, as raw memory: walking the signature's
    // array per call retains and releases it.
    private let offsets: UnsafeMutablePointer<Int>
    private let parameterCount: Int
    private let result: HookResult
    private let host = UnsafeRawPointer(HostTable.pointer)

    init(function: UnsafeMutableRawPointer, signature: HookSignature, context: UnsafeMutableRawPointer?)
        throws(FFIError)
    {
        self.function = unsafeBitCast(function, to: (@convention(c) () -> Void).self)
        self.signature = signature
        self.context = context
        parameterCount = signature.parameters.count
        offsets = .allocate(capacity: max(1, parameterCount))
        offsets.initialize(from: signature.parameters.map(Values.offset), count: parameterCount)
        result = signature.result
        // A struct passed by value needs its own ffi_type: size and alignment 0,
        // a NULL-terminated element list; ffi_prep_cif fills in the rest.
        indexPathFields.initialize(from: [ck_ffi_type_sint64(), ck_ffi_type_sint64(), nil], count: 3)
        indexPathType.initialize(
            to: ffi_type(size: 0, alignment: 0, type: UInt16(FFI_TYPE_STRUCT), elements: indexPathFields))
        argumentTypes = .allocate(capacity: max(1, signature.parameters.count))
        for (i, p) in signature.parameters.enumerated() {
            argumentTypes[i] = Self.type(of: p, indexPath: indexPathType)
        }
        let status = ck_ffi_prep_cif(
            cif, FFI_DEFAULT_ABI, UInt32(signature.parameters.count), Self.type(of: signature.result), argumentTypes)
        // Thrown once every property is set: `deinit` frees the buffers (freeing them here too freed
        // them twice).
        guard status == FFI_OK else { throw FFIError(status: status.rawValue) }
    }

    deinit { deallocate() }

    private func deallocate() {
        cif.deallocate()
        argumentTypes.deallocate()
        indexPathType.deallocate()
        indexPathFields.deallocate()
        offsets.deallocate()
    }

    /// Calls the hook for `cell`; returns its result as a Double (0 for void hooks).
    func call(_ cell: Cell) -> Double {
        // Fixed-size frames stay on the stack; a temporary allocation sized at run
        // time is a malloc and free per call, which cost more than libffi itself.
        let indexPath = cell.indexPath
        var values = Values(
            cell: UnsafeMutableRawPointer(cell.handle), indexPath: indexPath.c, section: Int64(indexPath.section),
            row: Int64(indexPath.row), host: host, context: context)
        var arguments = Arguments()
        var result: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &values) { values in
            withUnsafeMutableBytes(of: &arguments) { argumentBytes in
                let argv = argumentBytes.baseAddress!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
                for i in 0..<parameterCount { argv[i] = values.baseAddress! + offsets[i] }
                // libffi widens integer results narrower than a register to a full
                // ffi_arg: the result buffer must hold at least 8 bytes, read as ffi_arg.
                withUnsafeMutableBytes(of: &result) { ck_ffi_call(cif, function, $0.baseAddress, argv) }
            }
        }
        return withUnsafeBytes(of: &result) { read(self.result, from: $0) }
    }

    /// Every value a hook may take, filled in per call; each argument points at
    /// its kind's field, so a call neither switches on kinds nor copies per argument.
    private struct Values {
        var cell: UnsafeMutableRawPointer  // also `data`: a hook reads the row's data through its cell
        var indexPath: ck_index_path
        var section: Int64
        var row: Int64
        var host: UnsafeRawPointer
        var context: UnsafeMutableRawPointer?

        static func offset(of p: HookParameter) -> Int {
            switch p {
            case .cell, .data: MemoryLayout<Values>.offset(of: \.cell)!
            case .indexPath: MemoryLayout<Values>.offset(of: \.indexPath)!
            case .section: MemoryLayout<Values>.offset(of: \.section)!
            case .row: MemoryLayout<Values>.offset(of: \.row)!
            case .host: MemoryLayout<Values>.offset(of: \.host)!
            case .context: MemoryLayout<Values>.offset(of: \.context)!
            }
        }
    }
    /// Room for one pointer per parameter kind (a hook names each at most once).
    private struct Arguments {
        var pointers:
            (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
            ) = (nil, nil, nil, nil, nil, nil, nil, nil)
    }

    private func read(_ result: HookResult, from bytes: UnsafeRawBufferPointer) -> Double {
        switch result {
        case .void: 0
        case .double: bytes.load(as: Double.self)
        case .float: Double(bytes.load(as: Float.self))
        case .int32: Double(Int32(truncatingIfNeeded: bytes.load(as: UInt64.self)))
        }
    }

    private static func type(of p: HookParameter, indexPath: UnsafeMutablePointer<ffi_type>) -> UnsafeMutablePointer<
        ffi_type
    > {
        switch p {
        case .cell, .data, .host, .context: ck_ffi_type_pointer()
        case .indexPath: indexPath
        case .section, .row: ck_ffi_type_sint64()
        }
    }

    private static func type(of r: HookResult) -> UnsafeMutablePointer<ffi_type> {
        switch r {
        case .void: ck_ffi_type_void()
        case .double: ck_ffi_type_double()
        case .float: ck_ffi_type_float()
        case .int32: ck_ffi_type_sint32()
        }
    }
}

/// ffi_prep_cif refused a signature.
struct FFIError: Error { let status: UInt32 }
