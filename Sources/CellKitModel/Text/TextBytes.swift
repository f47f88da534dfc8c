// A label's text as UTF-8 bytes in memory it reuses: the text a hook sets on every
// row goes into the same buffer, with no String made, checked or freed per row.

/// UTF-8 text in a buffer of its own, checked once as it is written: valid UTF-8 (invalid
/// bytes are replaced, as `String(decoding:as:)` replaces them) and whether anything in it is
/// something `TextSanitizer` would change.
///
/// Immutable once shared: a view writes the next row's text into the same buffer only while
/// it is the buffer's one holder (`isKnownUniquelyReferenced`), and into a new one otherwise,
/// so lines laid out from it stay as they were.
public final class TextBytes: @unchecked Sendable {  // written only while uniquely referenced
    // Unchecked exclusivity: written only by its one holder (see above), and the runtime's
    // access checks on these cost more than writing a row's text (callgrind).
    // Set only here: `reserve` and `deinit` free it unless it is the block `state` heads.
    @usableFromInline @exclusivity(unchecked) package internal(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The text's length and cleanness, in memory of their own behind a constant: other modules read
    /// them inline. A stored property accessed from another module gets a runtime exclusivity check
    /// whatever its own attribute says, so these were getters, called 8 times a row on the
    /// same-work table (BENCHMARKS.md, "Measurements behind the code": TextBytes.state).
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// What `state` points to.
    @usableFromInline struct State {
        /// The number of bytes.
        @usableFromInline var count: Int
        /// See `isClean`.
        @usableFromInline var clean: Bool
    }

    /// True when no byte of the text is a control character or starts a hidden scalar
    /// (see `UTF8Bytes.isHidden`): the sanitizer would leave it as it is.
    @inlinable package var isClean: Bool { state.pointee.clean }

    /// `bytes`, checked: invalid UTF-8 replaced by U+FFFD.
    package convenience init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(capacity: bytes.count)
        assign(bytes)
    }

    /// No text yet, room for `capacity` bytes.
    package init(capacity: Int) {
        // `state` and the first bytes in one block: a text made per row (a line cut with "…") costs
        // no allocation more for `state`.
        let room = max(capacity, 16)
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<State>.stride + room, alignment: MemoryLayout<State>.alignment)
        state = block.bindMemory(to: State.self, capacity: 1)
        state.initialize(to: State(count: 0, clean: true))
        (base, self.capacity) = ((block + MemoryLayout<State>.stride).bindMemory(to: UInt8.self, capacity: room), room)
    }

    /// Whether `base` is the block `state` heads, not a larger one allocated since.
    private var bytesInBlock: Bool {
        UnsafeMutableRawPointer(base) == UnsafeMutableRawPointer(state) + MemoryLayout<State>.stride
    }

    /// Room for `needed` bytes, in a larger buffer when they do not fit (the text is not kept).
    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        if !bytesInBlock { base.deallocate() }
        capacity = max(needed, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    /// The text of `string`.
    package convenience init(_ string: String) {
        self.init(capacity: string.utf8.count)
        string.withBorrowedUTF8 { assign($0) }
    }

    deinit {
        if !bytesInBlock { base.deallocate() }
        UnsafeMutableRawPointer(state).deallocate()
    }

    /// Replaces the text with `bytes`, checked. Only for a buffer one holder has: see the type's rule.
    package func assign(_ bytes: UnsafeBufferPointer<UInt8>) {
        let (valid, clean) = UTF8Bytes.check(bytes)
        guard valid else { return String(decoding: bytes, as: UTF8.self).withBorrowedUTF8 { assign($0) } }
        assign(checked: bytes, isClean: clean)
    }

    /// `assign(_:)` of bytes `UTF8Bytes.check` found valid, and clean or not: not checked again.
    package func assign(checked bytes: UnsafeBufferPointer<UInt8>, isClean clean: Bool) {
        reserve(bytes.count)
        // Most are 64 bytes or fewer: word moves inline (`ShortCopy`).
        if let source = bytes.baseAddress { ShortCopy.copy(base, from: source, count: bytes.count) }
        state.pointee = State(count: bytes.count, clean: clean)
    }

    /// `assign(checked:isClean:)` of `bytes` followed by `suffix` (both valid UTF-8 on their own),
    /// copied in once: a truncated line and its ellipsis with no String made between.
    package func assign(
        checked bytes: UnsafeBufferPointer<UInt8>, appending suffix: UnsafeBufferPointer<UInt8>, isClean clean: Bool
    ) {
        let total = bytes.count &+ suffix.count
        reserve(total)
        if let source = bytes.baseAddress { ShortCopy.copy(base, from: source, count: bytes.count) }
        if let source = suffix.baseAddress { ShortCopy.copy(base + bytes.count, from: source, count: suffix.count) }
        state.pointee = State(count: total, clean: clean)
    }

    /// `body` over the text's bytes.
    @inlinable @inline(__always)
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { body(bytes) }

    /// The text's bytes, for `withBytes`. Not inlinable: inlined into another module, the read of
    /// `base` got a runtime exclusivity check (callgrind).
    @usableFromInline var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: byteCount) }

    /// The number of bytes.
    @inlinable package var byteCount: Int { state.pointee.count }

    /// The text as a String (made now: for reading it back, not for drawing it).
    package var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}
