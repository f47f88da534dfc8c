// The bytes a format wrote for the pieces of the rows before — a label's opening tag, a view's
// frame in JSON — kept with what decided them. Rows of one cell type mostly write these pieces
// alike, only their texts differing, and writing a piece bit by bit (each bit checking for room)
// was much of a row's cost in the formats that write markup (BENCHMARKS.md, "Measurements behind
// the code": PieceMemo).

import CellKitModel

/// Pieces of the last rows' bytes, one place per piece in its row's order, each with the key that
/// decided its bytes. A piece whose key equals its place's is written as those bytes in one copy;
/// any other is written anew and kept.
struct PieceMemo {
    /// Everything a piece's bytes are made from, packed in words by the format that writes it: two
    /// pieces with equal keys are the same bytes. Words, compared by hand: a key of optionals and
    /// enums compared by a synthesized `==` cost as much as writing most pieces (callgrind).
    struct Key {
        private var a: UInt64, b: UInt64, c: UInt64, d: UInt64, e: UInt64, f: UInt64
        private var g: UInt64, h: UInt64, i: UInt64, j: UInt64, k: UInt64, l: UInt64

        /// A key no piece has (its first word is 0; a format's keys set its top bit).
        static let none = Key(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        /// A key of these words. `a` must have its top bit set (`flag`): `none`'s is clear.
        init(
            _ a: UInt64, _ b: UInt64 = 0, _ c: UInt64 = 0, _ d: UInt64 = 0, _ e: UInt64 = 0, _ f: UInt64 = 0,
            _ g: UInt64 = 0, _ h: UInt64 = 0, _ i: UInt64 = 0, _ j: UInt64 = 0, _ k: UInt64 = 0, _ l: UInt64 = 0
        ) {
            (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
            (self.g, self.h, self.i, self.j, self.k, self.l) = (g, h, i, j, k, l)
        }

        /// The top bit, which every real key's first word has.
        static let flag: UInt64 = 1 << 63

        /// `n` as a key word.
        @inline(__always)
        static func word(_ n: Int) -> UInt64 { UInt64(bitPattern: Int64(n)) }

        /// A colour as a key word: bit 32 says it is there.
        @inline(__always)
        static func word(_ c: Color?) -> UInt64 { c.map { 1 << 32 | UInt64($0.rawValue) } ?? 0 }

        /// 1 at bit `at` when `flag` is true.
        @inline(__always)
        static func bit(_ flag: Bool, _ at: UInt64) -> UInt64 { flag ? 1 << at : 0 }

        /// Whether both keys are the same, word for word.
        @inline(__always)
        func same(as o: Key) -> Bool {
            let x = (a ^ o.a) | (b ^ o.b) | (c ^ o.c) | (d ^ o.d) | (e ^ o.e) | (f ^ o.f)
            let y = (g ^ o.g) | (h ^ o.h) | (i ^ o.i) | (j ^ o.j) | (k ^ o.k) | (l ^ o.l)
            return x | y == 0
        }
    }

    /// Places kept: a row's first pieces of this kind; later ones are written each time.
    let places: Int
    /// Bytes a piece may take to be kept (a longer one is written each time).
    static let longest = 256

    // Arrays, read in place: inline arrays of these were copied whole on every piece (callgrind).
    private var keys: [Key], lengths: [Int]
    /// The pieces' bytes, `longest` a place.
    private var store: [UInt8]
    /// The place of the row's next piece.
    private var next = 0
    /// How many pieces were written from kept bytes (for tests: that the formats do replay).
    private(set) var replayed = 0

    /// `places` places, none holding a piece yet.
    init(places: Int) {
        self.places = places
        (keys, lengths) = (Array(repeating: .none, count: places), Array(repeating: 0, count: places))
        store = Array(repeating: 0, count: places * Self.longest)
    }

    /// Readies the places for a new row: its first piece takes the first.
    mutating func startRow() { next = 0 }

    /// Writes the row's next piece, decided by `key`, as the bytes its place keeps when it holds that
    /// key: true. False when it does not: then the caller writes the piece, and `keep`s it. (Two
    /// calls, not one taking the writing as a closure: a closure over the row copied the row, its
    /// views retained, callgrind.)
    @inline(__always)
    mutating func replay(_ key: Key, _ out: OutputBuffer) -> Bool {
        let place = next
        next &+= 1
        guard place < places, keys[place].same(as: key) else { return false }
        let (start, count) = (place &* Self.longest, lengths[place])
        store.withUnsafeBufferPointer { out.write(UnsafeBufferPointer(start: $0.baseAddress! + start, count: count)) }
        replayed &+= 1
        return true
    }

    /// Keeps what was written since `mark` (a `count` of `out` read before `replay`) as the piece
    /// `replay` was just asked for, decided by `key`.
    mutating func keep(_ key: Key, since mark: Int, _ out: OutputBuffer) {
        let place = next &- 1
        guard place >= 0, place < places else { return }
        let written = out.written(since: mark)
        guard written.count <= Self.longest else {
            keys[place] = .none
            return
        }
        store.withUnsafeMutableBufferPointer {
            ($0.baseAddress! + place &* Self.longest).update(from: written.baseAddress!, count: written.count)
        }
        (keys[place], lengths[place]) = (key, written.count)
    }
}

extension PlacedView.Role {
    /// The role as a number for a `PieceMemo.Key`.
    var keyCode: UInt64 {
        switch self {
        case .imageView: 0
        case .textLabel: 1
        case .detailTextLabel: 2
        case .subview: 3
        case .accessory: 4
        }
    }
}

extension RowPosition {
    /// The position as a number for a `PieceMemo.Key`.
    var keyCode: UInt64 {
        switch self {
        case .single: 0
        case .top: 1
        case .middle: 2
        case .bottom: 3
        }
    }
}
