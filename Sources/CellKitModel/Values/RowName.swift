// How every message names a row: the one place the words and numbers are spelled, so that a
// crash line, a warning, a check finding and browse's status line count rows the same way.
// `RowNameTests` reads every string literal under Sources/ and fails on a row number written
// any other way.

/// A row named for people, counted from 1 as `cellkit render --select` and `--rows` and
/// `cellkit browse`'s `NG` take them; data (JSON, a hook's `indexPath`) counts from 0.
///
/// The forms, each with its example:
/// - a row by its place: `row 2.1`, section 2's first row (`--select 2.1`);
/// - the same for a plugin's author, with the index path its hooks get:
///   `row 2.1 (indexPath [1, 0])`;
/// - a row counted across all sections: `row 57` (`--rows 57..57`, `57G`), `row ≈57` when the
///   count is a guess;
/// - a run of them: `rows 11..20`, `rows 11..` (`--rows 11..20`).
package struct RowName: Sendable, Equatable, CustomStringConvertible {
    private enum Form: Sendable, Equatable {
        case place(IndexPath, author: Bool)
        case across(Int, approximate: Bool)
        case run(first: Int, last: Int?)
    }

    private let form: Form

    /// `row 2.1` for the index path `[1, 0]`.
    package static func of(_ indexPath: IndexPath) -> RowName { RowName(form: .place(indexPath, author: false)) }

    /// `row 2.1 (indexPath [1, 0])`: for a message a plugin's author reads, who knows the row by
    /// the index path its hooks were given.
    package static func forAuthor(_ indexPath: IndexPath) -> RowName {
        RowName(form: .place(indexPath, author: true))
    }

    /// `row 57` for the row at `index` (from 0) counted across all sections; `row ≈57` when
    /// `approximate`.
    package static func across(_ index: Int, approximate: Bool = false) -> RowName {
        RowName(form: .across(index, approximate: approximate))
    }

    /// `rows 11..20` for the rows `first` through `last` (from 0) counted across all sections;
    /// `rows 11..` without a last.
    package static func run(_ first: Int, through last: Int?) -> RowName {
        RowName(form: .run(first: first, last: last))
    }

    /// The name, as in the examples above.
    package var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40)
        switch form {
        case .place(let path, let author):
            Self.write(section: path.section, row: path.row, author: author) { bytes.append($0) }
        case .across(let index, let approximate):
            Self.add("row ", to: { bytes.append($0) })
            if approximate { bytes += [0xE2, 0x89, 0x88] }  // ≈
            Self.add(number: index + 1) { bytes.append($0) }
        case .run(let first, let last):
            Self.add("rows ", to: { bytes.append($0) })
            Self.add(number: first + 1) { bytes.append($0) }
            Self.add("..", to: { bytes.append($0) })
            if let last { Self.add(number: last + 1) { bytes.append($0) } }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `row S.R`, or `row S.R (indexPath [s, r])` when `author`, for `section` and `row`
    /// from 0, a byte at a time to `put`. Allocates nothing and takes no lock: a signal
    /// handler writes a crash line with it (`FaultLine`).
    package static func write(section: Int, row: Int, author: Bool, to put: (UInt8) -> Void) {
        add("row ", to: put)
        add(number: section + 1, to: put)
        put(UInt8(ascii: "."))
        add(number: row + 1, to: put)
        guard author else { return }
        add(" (indexPath [", to: put)
        add(number: section, to: put)
        add(", ", to: put)
        add(number: row, to: put)
        add("])", to: put)
    }

    private static func add(_ text: StaticString, to put: (UInt8) -> Void) {
        let start = text.utf8Start
        for i in 0..<text.utf8CodeUnitCount { put(start[i]) }
    }

    /// `number` in decimal, with a minus sign when negative; no allocation.
    private static func add(number: Int, to put: (UInt8) -> Void) {
        var n = number.magnitude
        if number < 0 { put(UInt8(ascii: "-")) }
        var divisor: UInt = 1
        while n / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            put(UInt8(truncatingIfNeeded: n / divisor) + 0x30)
            n %= divisor
            divisor /= 10
        }
    }
}
