// Bounds on a YAML text, checked in two passes around Yams: a scan of the text
// before it is composed (aliases counted, keys that would make composing hash an
// alias's whole expansion refused, flow nesting bounded), and an iterative walk of
// the composed tree (values with aliases expanded, depth, text sizes), stopping at
// the first limit. Nothing downstream then recurses deeper or visits more.

import Yams

/// The checks; each failure is a message at a line and column, and quotes none of the text.
enum YAMLGuard {
    /// A limit exceeded at a place.
    struct Finding: Error {
        let line: Int, column: Int, message: String
    }

    static let complexKey = "a mapping key here is an alias, a list or a mapping; write keys as plain names"

    static func tooDeep() -> String {
        "lists and mappings are nested more than \(DocumentLimits.depth) levels deep (the limit, DocumentLimits.depth); flatten the data"
    }

    // MARK: Before composing

    /// The first limit `text` exceeds, found without composing it. Aliases are found where a node starts (after indentation, `- `,
    /// `: `, `[`, `{` or `,`), outside quotes, comments and block scalars.
    static func scan(_ text: UnsafeBufferPointer<UInt8>) -> Finding? {
        var scanner = Scanner(bytes: text)
        do { try scanner.run() } catch { return error }
        return nil
    }

    /// The first limit `text` exceeds, as `scan`; or else the byte offsets of the UTF-16 surrogate
    /// pairs written as two `\u` escapes in its double-quoted scalars (as JSON writers such as
    /// Python's `json.dump` write characters outside the BMP), which libyaml refuses.
    static func scanPairs(_ text: UnsafeBufferPointer<UInt8>) -> Result<[Int], Finding> {
        var scanner = Scanner(bytes: text)
        do { try scanner.run() } catch { return .failure(error) }
        return .success(scanner.surrogatePairs)
    }

    /// `text` with each surrogate pair at `offsets` (from `scanPairs`) written as the one `\U`
    /// escape of its character, which YAML reads.
    static func joiningPairs(_ text: String, at offsets: [Int]) -> String {
        var bytes = Array(text.utf8)
        for offset in offsets.reversed() {
            let high = hexValue(bytes[(offset + 2)..<(offset + 6)]) ?? 0
            let low = hexValue(bytes[(offset + 8)..<(offset + 12)]) ?? 0
            let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            let hex = String(scalar, radix: 16, uppercase: true)
            let escape = "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
            bytes.replaceSubrange(offset..<(offset + 12), with: Array(escape.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of four hex digits, or nil.
    static func hexValue(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | Int(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | Int(d - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | Int(d - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return digits.count == 4 ? value : nil
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0, line = 1, lineStart = 0
        var aliases = 0, flow = 0
        var nodeStart = true
        /// After a closing quote, bracket or alias: a `:` right after ends a key.
        var afterClose = false
        /// Inside a block scalar (`|`, `>`): lines indented more than this are its text.
        var blockParent: Int?
        /// Where a double-quoted scalar writes a surrogate pair as two `\u` escapes.
        var surrogatePairs: [Int] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func byte(_ k: Int) -> UInt8? { k < bytes.count ? bytes[k] : nil }

        /// The length of the line break at `k` (LF, CR, CRLF, NEL, LS, PS: what libyaml breaks on), or 0.
        func breakLength(_ k: Int) -> Int {
            guard let b = byte(k) else { return 0 }
            switch b {
            case 0x0A: return 1
            case 0x0D: return byte(k + 1) == 0x0A ? 2 : 1
            case 0xC2: return byte(k + 1) == 0x85 ? 2 : 0
            case 0xE2: return byte(k + 1) == 0x80 && (byte(k + 2) == 0xA8 || byte(k + 2) == 0xA9) ? 3 : 0
            default: return 0
            }
        }

        func isBlankOrEnd(_ k: Int) -> Bool {
            guard let b = byte(k) else { return true }
            return b == 0x20 || b == 0x09 || breakLength(k) > 0
        }

        func isFlowIndicator(_ b: UInt8?) -> Bool {
            b == UInt8(ascii: ",") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "{")
                || b == UInt8(ascii: "}")
        }

        func finding(_ message: String, at k: Int) -> Finding {
            let column = 1 + bytes[lineStart..<min(k, bytes.count)].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return Finding(line: line, column: column, message: message)
        }

        mutating func newLine(_ length: Int) {
            i += length
            line += 1
            lineStart = i
        }

        /// After a key-ending token (alias, closing bracket): blanks, then a `:` that indicates a value?
        func colonFollows(_ k: Int) -> Bool {
            var j = k
            while let b = byte(j), b == 0x20 || b == 0x09 { j += 1 }
            guard byte(j) == UInt8(ascii: ":") else { return false }
            return isBlankOrEnd(j + 1) || (flow > 0 && isFlowIndicator(byte(j + 1)))
        }

        mutating func run() throws(Finding) {
            if byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF { i = 3 }
            while i < bytes.count {
                // A line's start: indentation, then block scalar text or a new node.
                var indent = 0
                while byte(i) == 0x20 { indent += 1; i += 1 }
                if let parent = blockParent {
                    if isBlankOrEnd(i) && byte(i) != 0x09 || indent > parent {
                        skipLine()
                        continue
                    }
                    blockParent = nil
                }
                if flow == 0 { nodeStart = true }
                if byte(i) == UInt8(ascii: "%"), flow == 0 {  // a directive
                    skipLine()
                    continue
                }
                if indent == 0, byte(i) == UInt8(ascii: "-"), byte(i + 1) == UInt8(ascii: "-"),
                    byte(i + 2) == UInt8(ascii: "-"), isBlankOrEnd(i + 3)
                {
                    i += 3
                }
                try scanLine(indent: indent)
            }
        }

        mutating func skipLine() {
            while i < bytes.count {
                let n = breakLength(i)
                if n > 0 { newLine(n); return }
                i += 1
            }
        }

        mutating func scanLine(indent: Int) throws(Finding) {
            var afterBlank = true
            while i < bytes.count {
                let n = breakLength(i)
                if n > 0 { newLine(n); return }
                let b = bytes[i]
                if b == 0x20 || b == 0x09 {
                    afterBlank = true
                    i += 1
                    continue
                }
                defer { afterBlank = false }
                if b == UInt8(ascii: "#"), afterBlank { skipLine(); return }
                let quote = b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
                let open = b == UInt8(ascii: "[") || b == UInt8(ascii: "{")
                let close = b == UInt8(ascii: "]") || b == UInt8(ascii: "}")
                if quote, nodeStart {
                    try skipQuoted(b)
                    nodeStart = false
                    afterClose = true
                    continue
                } else if b == UInt8(ascii: "*"), nodeStart {
                    aliases += 1
                    guard aliases <= DocumentLimits.aliases else {
                        throw finding(
                            "more than \(DocumentLimits.aliases) YAML aliases (*name) (the limit, DocumentLimits.aliases); write the values out instead",
                            at: i)
                    }
                    let start = i
                    i += 1
                    while let c = byte(i), !isBlankOrEnd(i), !isFlowIndicator(c) { i += 1 }
                    if colonFollows(i) { throw finding(YAMLGuard.complexKey, at: start) }
                    nodeStart = false
                    afterClose = true
                    continue
                } else if b == UInt8(ascii: "&") || b == UInt8(ascii: "!"), nodeStart {
                    // properties (anchor, tag): the node starts after them
                    while let c = byte(i), !isBlankOrEnd(i), !isFlowIndicator(c) { i += 1 }
                    continue
                } else if b == UInt8(ascii: "?"), nodeStart, isBlankOrEnd(i + 1) || isFlowIndicator(byte(i + 1)) {
                    throw finding(YAMLGuard.complexKey, at: i)
                } else if b == UInt8(ascii: "-"), nodeStart, flow == 0, isBlankOrEnd(i + 1) {
                    i += 1
                    continue  // a list item: a node starts after it
                } else if b == UInt8(ascii: "|") || b == UInt8(ascii: ">"), nodeStart, flow == 0 {
                    blockParent = indent
                    skipLine()
                    return
                } else if open, nodeStart || flow > 0 {
                    flow += 1
                    guard flow <= DocumentLimits.depth else { throw finding(YAMLGuard.tooDeep(), at: i) }
                    nodeStart = true
                    afterClose = false
                    i += 1
                    continue
                } else if close, flow > 0 {
                    flow -= 1
                    if colonFollows(i + 1) { throw finding(YAMLGuard.complexKey, at: i) }
                    nodeStart = false
                    afterClose = true
                    i += 1
                    continue
                } else if b == UInt8(ascii: ","), flow > 0 {
                    nodeStart = true
                    afterClose = false
                    i += 1
                    continue
                } else if b == UInt8(ascii: ":") {
                    nodeStart = isBlankOrEnd(i + 1) || (flow > 0 && (isFlowIndicator(byte(i + 1)) || afterClose))
                } else {
                    nodeStart = false
                }
                afterClose = false
                i += 1
            }
        }

        /// The UTF-16 unit of a `\\uXXXX` escape at `k`, or nil.
        func escapedUnit(at k: Int) -> Int? {
            guard byte(k) == UInt8(ascii: "\\"), byte(k + 1) == UInt8(ascii: "u"), k + 6 <= bytes.count else {
                return nil
            }
            return YAMLGuard.hexValue(ArraySlice(bytes[(k + 2)..<(k + 6)]))
        }

        /// Skips a quoted scalar from its opening quote to after its closing one (lines counted).
        /// A surrogate pair written as two `\u` escapes is noted; a lone surrogate is a finding.
        mutating func skipQuoted(_ quote: UInt8) throws(Finding) {
            i += 1
            while i < bytes.count {
                let n = breakLength(i)
                if n > 0 { newLine(n); continue }
                let b = bytes[i]
                if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") {
                    if let unit = escapedUnit(at: i), (0xD800...0xDFFF).contains(unit) {
                        let low = escapedUnit(at: i + 6)
                        guard unit < 0xDC00, let low, (0xDC00...0xDFFF).contains(low) else {
                            let hex = String(unit, radix: 16, uppercase: true)
                            throw finding(
                                "\\u\(hex) is half of a UTF-16 surrogate pair with no other half; write the character itself, or its \\U00XXXXXX escape",
                                at: i)
                        }
                        surrogatePairs.append(i)
                        i += 12
                        continue
                    }
                    i += 2
                    continue
                }
                if b == quote {
                    if quote == UInt8(ascii: "'"), byte(i + 1) == quote {
                        i += 2
                        continue
                    }
                    i += 1
                    return
                }
                i += 1
            }
        }
    }

    // MARK: After composing

    /// Whether a tree's plain scalars are typed as Yams' default resolver types them (see `walk`).
    enum Typing {
        /// Every plain scalar resolved to str while composing (mapping keys) is one the default rules type
        /// str: a tree composed with the basic resolver means what the default one's would.
        case typedAlike
        /// Some plain scalar resolved to str has a text the default rules type otherwise: if the basic
        /// resolver composed the tree, the default one might have composed it differently.
        case retyped
    }

    /// Walks the composed tree without recursion, aliases expanded (Yams composes an alias as the node it
    /// names), and stops at the first limit: more values than `DocumentLimits.values`, nesting deeper than
    /// `DocumentLimits.depth`, or a text longer than `DocumentLimits.textBytes`. On the way, it looks for plain
    /// scalars resolved to str that `PlainScalar` types otherwise (NodeReader.composed(_:) says why).
    @discardableResult
    static func walk(_ root: Node, _ reader: NodeReader) throws(DocumentError) -> Typing {
        var stack: [(Node, Int)] = [(root, 1)]
        var values = 0
        var typing = Typing.typedAlike
        while let (node, depth) = stack.popLast() {
            values += 1
            guard values <= DocumentLimits.values else {
                throw reader.error(
                    node,
                    "the file expands to more than \(FileAccess.grouped(DocumentLimits.values)) values (the limit, DocumentLimits.values); aliases that repeat large values multiply them: write less, or stream rows from a file with rowsFrom"
                )
            }
            guard depth <= DocumentLimits.depth else { throw reader.error(node, tooDeep()) }
            switch node {
            case .scalar(let s):
                guard s.string.utf8.count <= DocumentLimits.textBytes else {
                    throw reader.error(
                        node,
                        "a text longer than \(FileAccess.sizeText(DocumentLimits.textBytes)) (the limit, DocumentLimits.textBytes); shorten it"
                    )
                }
                if typing == .typedAlike, retyped(s) { typing = .retyped }
            case .mapping(let m):
                for (key, value) in m { stack.append((value, depth + 1)); stack.append((key, depth + 1)) }
            case .sequence(let items):
                for item in items.reversed() { stack.append((item, depth + 1)) }
            case .alias:
                break
            }
        }
        return typing
    }

    /// Whether `scalar` is plain and typed str (by a `!!str` tag, or resolved while composing: a mapping key,
    /// or an alias of an anchored one) although the default rules type its text otherwise.
    static func retyped(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && scalar.tag.description == Tag.Name.str.rawValue
            && PlainScalar.tagName(scalar.string) != .str
    }
}
