// The YAML type of a plain scalar's text, exactly as Yams' `Resolver.default` gives it, without its
// regular expressions.
//
// Why hand-rolled: the default resolver's rules are `NSRegularExpression`s, and compiling the first one
// starts ICU's regex machinery (`icu::RegexStaticSets::initGlobals`, which builds UnicodeSets from property
// patterns): making `Resolver.default` was a large part of a small table's render, in instructions and
// in wall time (BENCHMARKS.md, "Measurements behind the code": PlainScalar). Every process that reads a
// document paid that, for rules a few comparisons decide.
// Tests/CellKitDocumentsTests/PlainScalarTests.swift checks this against Yams' own rules.

import Yams

/// Types an implicit plain scalar from its text, as Yams' `Resolver.default` does.
enum PlainScalar {
    /// The tag Yams' default rules give a plain, untagged scalar whose text is `text`: the first of bool, int,
    /// float, merge, null, timestamp and value whose pattern the whole text matches, else str.
    static func tagName(_ text: String) -> Tag.Name {
        var text = text
        return text.withUTF8 { tagName(utf8: $0) }
    }

    /// `tagName(_:)` for a text's UTF-8 bytes.
    static func tagName(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Tag.Name {
        let text = Cursor(bytes: bytes, at: 0, end: bytes.count - finalBreakLength(bytes))
        if isBool(text) { return .bool }
        if isInt(text) { return .int }
        if isFloat(text) { return .float }
        if text.equals("<<") { return .merge }
        if isNull(text) { return .null }
        if isTimestamp(text) { return .timestamp }
        if text.equals("=") { return .value }
        return .str
    }

    /// The length of the line break that ends `bytes`, if one does. Each rule is `^(?:…)$`, and ICU's `$`
    /// (without the multiline option) also matches before a final line break: LF, VT, FF, CR, CR LF, NEL,
    /// LS or PS. No rule's text holds a line break, so the rules are matched against the text without it.
    static func finalBreakLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        guard n > 0 else { return 0 }
        if n >= 2, bytes[n - 2] == 0x0D, bytes[n - 1] == 0x0A { return 2 }
        if (0x0A...0x0D).contains(bytes[n - 1]) { return 1 }
        if n >= 2, bytes[n - 2] == 0xC2, bytes[n - 1] == 0x85 { return 2 }
        if n >= 3, bytes[n - 3] == 0xE2, bytes[n - 2] == 0x80, bytes[n - 1] == 0xA8 || bytes[n - 1] == 0xA9 {
            return 3
        }
        return 0
    }

    // MARK: The rules (Yams' Resolver.swift), each over the whole text

    private static let boolWords: [StaticString] = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ]

    /// `yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF`
    private static func isBool(_ text: Cursor) -> Bool {
        boolWords.contains { text.equals($0) }
    }

    /// `~|null|Null|NULL|` (the last alternative empty)
    private static func isNull(_ text: Cursor) -> Bool {
        text.isAtEnd || text.equals("~") || text.equals("null") || text.equals("Null") || text.equals("NULL")
    }

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
    /// | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`: every alternative starts with the optional sign.
    private static func isInt(_ text: Cursor) -> Bool {
        var c = text
        c.skipSign()
        return binaryInt(c) || octalInt(c) || decimalInt(c) || hexInt(c) || sexagesimalInt(c)
    }

    /// `0b[0-1_]+`
    private static func binaryInt(_ text: Cursor) -> Bool {
        var c = text
        return c.take("0") && c.take("b") && c.skip(Byte.isBinaryOrUnderscore) > 0 && c.isAtEnd
    }

    /// `0o?[0-7_]+`: `o` is not an octal digit, so whether the `o` is there decides the match alone.
    private static func octalInt(_ text: Cursor) -> Bool {
        var c = text
        guard c.take("0") else { return false }
        _ = c.take("o")
        return c.skip(Byte.isOctalOrUnderscore) > 0 && c.isAtEnd
    }

    /// `0|[1-9][0-9_]*`
    private static func decimalInt(_ text: Cursor) -> Bool {
        var c = text
        if c.take("0") { return c.isAtEnd }
        guard c.take(where: Byte.isNonZeroDigit) else { return false }
        c.skip(Byte.isDigitOrUnderscore)
        return c.isAtEnd
    }

    /// `0x[0-9a-fA-F_]+`
    private static func hexInt(_ text: Cursor) -> Bool {
        var c = text
        return c.take("0") && c.take("x") && c.skip(Byte.isHexOrUnderscore) > 0 && c.isAtEnd
    }

    /// `[1-9][0-9_]*(?::[0-5]?[0-9])+`
    private static func sexagesimalInt(_ text: Cursor) -> Bool {
        var c = text
        guard c.take(where: Byte.isNonZeroDigit) else { return false }
        c.skip(Byte.isDigitOrUnderscore)
        return c.skipSexagesimalGroups() && c.isAtEnd
    }

    /// `[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)? | \.[0-9_]+(?:[eE][-+][0-9]+)?
    /// | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)`
    private static func isFloat(_ text: Cursor) -> Bool {
        var signed = text
        signed.skipSign()
        return decimalFloat(signed) || fractionFloat(text) || sexagesimalFloat(signed) || infinity(signed)
            || notANumber(text)
    }

    /// `[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?`. Each optional part starts with a byte that cannot
    /// continue what comes before it, so taking a part when it is there never loses a match.
    private static func decimalFloat(_ text: Cursor) -> Bool {
        var c = text
        guard c.take(where: Byte.isDigit) else { return false }
        c.skip(Byte.isDigitOrUnderscore)
        if c.take(".") { c.skip(Byte.isDigitOrUnderscore) }
        if c.take("e") || c.take("E") {
            c.skipSign()
            guard c.skip(Byte.isDigit) > 0 else { return false }
        }
        return c.isAtEnd
    }

    /// `\.[0-9_]+(?:[eE][-+][0-9]+)?`: no sign before the point, and the exponent's sign is required.
    private static func fractionFloat(_ text: Cursor) -> Bool {
        var c = text
        guard c.take("."), c.skip(Byte.isDigitOrUnderscore) > 0 else { return false }
        if c.take("e") || c.take("E") {
            guard c.take("-") || c.take("+"), c.skip(Byte.isDigit) > 0 else { return false }
        }
        return c.isAtEnd
    }

    /// `[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*`
    private static func sexagesimalFloat(_ text: Cursor) -> Bool {
        var c = text
        guard c.take(where: Byte.isDigit) else { return false }
        c.skip(Byte.isDigitOrUnderscore)
        guard c.skipSexagesimalGroups(), c.take(".") else { return false }
        c.skip(Byte.isDigitOrUnderscore)
        return c.isAtEnd
    }

    /// `\.(?:inf|Inf|INF)`
    private static func infinity(_ text: Cursor) -> Bool {
        text.equals(".inf") || text.equals(".Inf") || text.equals(".INF")
    }

    /// `\.(?:nan|NaN|NAN)`
    private static func notANumber(_ text: Cursor) -> Bool {
        text.equals(".nan") || text.equals(".NaN") || text.equals(".NAN")
    }

    /// `[0-9]{4}-[0-9]{2}-[0-9]{2} | [0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}
    /// (?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?` (written out digit by digit in Yams).
    private static func isTimestamp(_ text: Cursor) -> Bool {
        var date = text
        if date.takeDigits(4), date.take("-"), date.takeDigits(2), date.take("-"), date.takeDigits(2), date.isAtEnd {
            return true
        }
        var c = text
        guard c.takeDigits(4), c.take("-"), c.takeOneOrTwoDigits(), c.take("-"), c.takeOneOrTwoDigits() else {
            return false
        }
        guard c.take("T") || c.take("t") || c.skip(Byte.isSpaceOrTab) > 0 else { return false }
        guard c.takeOneOrTwoDigits(), c.take(":"), c.takeDigits(2), c.take(":"), c.takeDigits(2) else { return false }
        if c.take(".") { c.skip(Byte.isDigit) }
        if c.isAtEnd { return true }
        // The zone is optional as a whole: blanks before it are only allowed with one.
        c.skip(Byte.isSpaceOrTab)
        if c.take("Z") { return c.isAtEnd }
        guard c.take("-") || c.take("+"), c.takeOneOrTwoDigits() else { return false }
        if c.take(":") { return c.takeDigits(2) && c.isAtEnd }
        return c.isAtEnd
    }
}

/// A reading position in a text's UTF-8 bytes, up to `end`. Every byte the rules name is ASCII, so matching
/// bytes matches what ICU matches in UTF-16: a byte of a longer character matches no class.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var at: Int
    let end: Int

    var isAtEnd: Bool { at == end }

    /// Whether the rest of the text is exactly `word` (ASCII).
    func equals(_ word: StaticString) -> Bool {
        guard end - at == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<word.utf8CodeUnitCount where bytes[at + k] != w[k] { return false }
        return true
    }

    /// Takes `byte` (one ASCII character) if it is next.
    mutating func take(_ byte: Unicode.Scalar) -> Bool {
        take { $0 == UInt8(ascii: byte) }
    }

    /// Takes the next byte if it is in the class.
    mutating func take(where isIn: (UInt8) -> Bool) -> Bool {
        guard at < end, isIn(bytes[at]) else { return false }
        at += 1
        return true
    }

    /// Takes every byte in the class from here on; how many it took.
    @discardableResult
    mutating func skip(_ isIn: (UInt8) -> Bool) -> Int {
        let start = at
        while at < end, isIn(bytes[at]) { at += 1 }
        return at - start
    }

    /// `[-+]?`
    mutating func skipSign() {
        _ = take("-") || take("+")
    }

    /// Exactly `count` digits, whatever follows them.
    mutating func takeDigits(_ count: Int) -> Bool {
        for _ in 0..<count {
            guard take(where: Byte.isDigit) else { return false }
        }
        return true
    }

    /// `[0-9][0-9]?` where what follows is not a digit: the run of digits here is one or two long.
    mutating func takeOneOrTwoDigits() -> Bool {
        (1...2).contains(skip(Byte.isDigit))
    }

    /// `(?::[0-5]?[0-9])+`, where what follows is not a digit: one or more groups, each a colon and a run of
    /// one digit, or of two whose first is 0 to 5.
    mutating func skipSexagesimalGroups() -> Bool {
        var groups = 0
        while take(":") {
            let first = at
            let digits = skip(Byte.isDigit)
            guard digits == 1 || digits == 2 && bytes[first] <= UInt8(ascii: "5") else { return false }
            groups += 1
        }
        return groups > 0
    }
}

/// The rules' character classes, over bytes.
private enum Byte {
    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    static func isNonZeroDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "1") && b <= UInt8(ascii: "9") }
    static func isDigitOrUnderscore(_ b: UInt8) -> Bool { isDigit(b) || b == UInt8(ascii: "_") }
    static func isBinaryOrUnderscore(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "0") || b == UInt8(ascii: "1") || b == UInt8(ascii: "_")
    }
    static func isOctalOrUnderscore(_ b: UInt8) -> Bool {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "7") || b == UInt8(ascii: "_")
    }
    static func isHexOrUnderscore(_ b: UInt8) -> Bool {
        isDigitOrUnderscore(b) || b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f")
            || b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F")
    }
    static func isSpaceOrTab(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
}
