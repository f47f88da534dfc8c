// Hooks with a declared parameter list short enough to travel in argument
// registers, called through a typed pointer instead of libffi: a libffi call
// costs far more (BENCHMARKS.md, "Measurements behind the code": RegisterHook).
//
// Every parameter a hook may declare is integer class: pointers, int64_t, and
// ck_index_path, two int64_t that the System V x86-64 and AAPCS64 calling
// conventions pass as two consecutive registers when both are free. A list of
// at most six such words is therefore passed wholly in registers, in order, on
// both. The hook is called through a pointer typed with six words: the ones it
// declares first, then zeros in argument registers it never reads (the caller
// owns them; no callee of a fixed list reads past its own). Longer lists, and
// other targets, go through libffi (FFIHook).

import CCellKit
import CellKitDiscovery
import CellKitModel

/// A hook whose declared parameters fit in six argument registers, called through a typed pointer.
@usableFromInline struct RegisterHook: @unchecked Sendable {  // a C pointer and plain values, never written
    /// Where one argument word comes from.
    enum Word: UInt8 {
        case zero, cell, section, row, host, context
    }

    private typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private typealias VoidCall = @convention(c) (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) -> Void
    private typealias DoubleCall = @convention(c) (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) -> Double
    private typealias FloatCall = @convention(c) (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) -> Float
    private typealias Int32Call = @convention(c) (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) -> Int32

    private let function: UnsafeMutableRawPointer
    private let words: InlineArray<6, Word>
    private let result: HookResult
    private let context: UInt64, host: UInt64

    /// Whether a hook of `signature` is called this way on this target (its words counted by
    /// `HookSignature.argumentWords`, which must agree with `words(of:)`).
    static func fits(_ signature: HookSignature) -> Bool { signature.fitsInRegisters }

    /// The hook at `function` with `signature`, or nil when it does not `fit`.
    init?(function: UnsafeMutableRawPointer, signature: HookSignature, context: UnsafeMutableRawPointer?) {
        guard Self.fits(signature) else { return nil }
        var words = InlineArray<6, Word>(repeating: .zero)
        for (k, word) in signature.parameters.flatMap(Self.words(of:)).enumerated() { words[k] = word }
        (self.function, self.words, result) = (function, words, signature.result)
        self.context = UInt64(UInt(bitPattern: context))
        host = UInt64(UInt(bitPattern: HostTable.pointer))
    }

    /// The words one parameter takes, in order (`data` is the cell: a hook reads it through its cell).
    private static func words(of parameter: HookParameter) -> [Word] {
        switch parameter {
        case .cell, .data: [.cell]
        case .indexPath: [.section, .row]
        case .section: [.section]
        case .row: [.row]
        case .host: [.host]
        case .context: [.context]
        }
    }

    /// Calls the hook for `cell`; returns its result as a Double (0 for void hooks).
    func call(_ cell: Cell) -> Double {
        let indexPath = cell.indexPath
        let cellWord = UInt64(UInt(bitPattern: cell.handle))
        func value(_ k: Int) -> UInt64 {
            switch words[k] {
            case .zero: 0
            case .cell: cellWord
            case .section: UInt64(bitPattern: Int64(indexPath.section))
            case .row: UInt64(bitPattern: Int64(indexPath.row))
            case .host: host
            case .context: context
            }
        }
        let w: Words = (value(0), value(1), value(2), value(3), value(4), value(5))
        switch result {
        case .void:
            unsafeBitCast(function, to: VoidCall.self)(w.0, w.1, w.2, w.3, w.4, w.5)
            return 0
        case .double: return unsafeBitCast(function, to: DoubleCall.self)(w.0, w.1, w.2, w.3, w.4, w.5)
        case .float: return Double(unsafeBitCast(function, to: FloatCall.self)(w.0, w.1, w.2, w.3, w.4, w.5))
        case .int32: return Double(unsafeBitCast(function, to: Int32Call.self)(w.0, w.1, w.2, w.3, w.4, w.5))
        }
    }
}
