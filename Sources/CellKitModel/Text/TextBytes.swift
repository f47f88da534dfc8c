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
    @usableFromInline @exclusivity(unchecked) package var base: UnsafeMutablePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var count: Int
    @exclusivity(unchecked) private var capacity: Int
    /// True when no byte of the text is a control character or starts a hidden scalar
    /// (see `UTF8Bytes.isHidden`): the sanitizer would leave it as it is.
    package var isClean: Bool { clean }
    // Read through a getter by other modules: a stored property accessed from another
    // module gets a runtime exclusivity check whatever its own attribute says.
    @exclusivity(unchecked) private var clean: Bool

    /// `bytes`, checked: invalid UTF-8 replaced by U+FFFD.
    package convenience init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(capacity: bytes.count)
        assign(bytes)
    }

    /// No text yet, room for `capacity` bytes.
    package init(capacity: Int) {
        (base, count, self.capacity, clean) = (.allocate(capacity: max(capacity, 16)), 0, max(capacity, 16), true)
    }

    /// The text of `string`.
    package convenience init(_ string: String) {
        self.init(capacity: string.utf8.count)
        string.withBorrowedUTF8 { assign($0) }
    }

    deinit { base.deallocate() }

    /// Replaces the text with `bytes`, checked. Only for a buffer one holder has: see the type's rule.
    package func assign(_ bytes: UnsafeBufferPointer<UInt8>) {
        let (valid, clean) = UTF8Bytes.check(bytes)
        guard valid else { return String(decoding: bytes, as: UTF8.self).withBorrowedUTF8 { assign($0) } }
        assign(checked: bytes, isClean: clean)
    }

    /// `assign(_:)` of bytes `UTF8Bytes.check` found valid, and clean or not: not checked again.
    package func assign(checked bytes: UnsafeBufferPointer<UInt8>, isClean clean: Bool) {
        if bytes.count > capacity {
            base.deallocate()
            capacity = max(bytes.count, capacity * 2)
            base = .allocate(capacity: capacity)
        }
        if let source = bytes.baseAddress { base.update(from: source, count: bytes.count) }
        (count, self.clean) = (bytes.count, clean)
    }

    /// `assign(checked:isClean:)` of `bytes` followed by `suffix` (both valid UTF-8 on their own),
    /// copied in once: a truncated line and its ellipsis with no String made between.
    package func assign(
        checked bytes: UnsafeBufferPointer<UInt8>, appending suffix: UnsafeBufferPointer<UInt8>, isClean clean: Bool
    ) {
        let total = bytes.count &+ suffix.count
        if total > capacity {
            base.deallocate()
            capacity = max(total, capacity * 2)
            base = .allocate(capacity: capacity)
        }
        if let source = bytes.baseAddress { base.update(from: source, count: bytes.count) }
        if let source = suffix.baseAddress { (base + bytes.count).update(from: source, count: suffix.count) }
        (count, self.clean) = (total, clean)
    }

    /// `body` over the text's bytes.
    @inlinable @inline(__always)
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { body(bytes) }

    /// The text's bytes, for `withBytes`. Not inlinable, as `byteCount`: inlined into another
    /// module, the reads of `base` and `count` each got a runtime exclusivity check (callgrind).
    @usableFromInline var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The number of bytes.
    package var byteCount: Int { count }

    /// The text as a String (made now: for reading it back, not for drawing it).
    package var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}
