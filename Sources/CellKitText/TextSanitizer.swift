// The one way text from documents, data files and plugins reaches a terminal:
// every byte CellKit prints, to standard output or standard error, passes here.

import CellKitModel

/// Makes hostile text harmless for a terminal: every control character, escape
/// sequence, bidirectional override or isolate and invisible format character
/// becomes something visible, so no text from a document, data file or plugin can
/// move the cursor, clear the screen, write the clipboard or reorder what is shown.
///
/// What it changes:
/// - C0 controls become Control Pictures (ESC `␛`, BEL `␇`; a newline `␊` unless kept),
///   DEL becomes `␡`, and tab a space. An escape sequence is left as visible text (`␛[31m`).
/// - C1 controls, bidirectional marks, overrides and isolates (U+061C, U+200E–F,
///   U+202A–E, U+2066–9) and invisible format characters (U+00AD, U+180E, U+200B,
///   U+2060–4, U+206A–F, U+FEFF, U+FFF9–B) become `‹U+202E›`.
/// - Joiners and variation selectors stay: emoji sequences and many scripts need them.
///
/// That is for messages, names and paths, where a hidden character must be seen. A table's own
/// text (titles, headers, footers, labels) follows the text policy instead (`tableAction`,
/// drawn by `TextLayout.tableLines`): only controls and the bidirectional embeddings,
/// overrides and isolates are neutralised, and soft hyphens, zero-width spaces, word joiners
/// and LRM/RLM/ALM do their work unseen.
public enum TextSanitizer {
    /// `text` made visible as described above; newlines are kept when `keepNewlines`.
    public static func visible(_ text: String, keepNewlines: Bool = false) -> String {
        if isClean(text) { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x0A where keepNewlines: out.append(s)
            case 0x09: out.append(" ")
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + s.value)!)
            case 0x7F: out.append("\u{2421}")
            case _ where isHidden(s.value): out.append(contentsOf: marker(s.value).unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// `text` made visible, as the String form does; `text` itself when it is clean (checked as it
    /// was written, see `TextBytes.isClean`), so a label's usual text is not scanned again.
    package static func visible(_ text: TextBytes, keepNewlines: Bool = false) -> TextBytes {
        text.isClean ? text : TextBytes(visible(text.string, keepNewlines: keepNewlines))
    }

    /// JSON text with every DEL, C1 control, bidirectional control and invisible format
    /// character inside its strings written as a `\uXXXX` escape, so that JSON printed to
    /// a terminal is as inert as text. `JSONEncoder` escapes C0 controls but leaves these
    /// raw. Structure (newlines, indentation) is kept; the JSON's meaning is unchanged.
    package static func escapingHidden(json: String) -> String {
        if !json.unicodeScalars.contains(where: { $0.value == 0x7F || isHidden($0.value) }) { return json }
        var out = String.UnicodeScalarView()
        for s in json.unicodeScalars {
            if s.value == 0x7F || isHidden(s.value) {
                let hex = String(s.value, radix: 16)
                out.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count) + hex)".unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    /// The visible marker a neutralised character is drawn as: `‹U+202E›` (at least four hex digits).
    package static func marker(_ v: UInt32) -> String {
        let hex = String(v, radix: 16, uppercase: true)
        return "‹U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "›"
    }

    // MARK: The text policy of a table's text

    /// What the terminal formats (`text`, `ansi`, and the drawn lines of `json`) do with one scalar of
    /// a table's text: a title, a header or footer, a label. The one text policy (ARCHITECTURE.md,
    /// "Text"); messages and names keep `visible`, which shows every invisible character.
    package enum TableAction: Equatable {
        /// Drawn as it is: letters, marks, joiners, LRM/RLM/ALM (no width), U+2061–2064, U+180E.
        case keep
        /// Drawn as another scalar: a C0 control as its picture (`␛`), DEL as `␡`, a tab as a space.
        case replace(Unicode.Scalar)
        /// Neutralised, drawn as its `marker` (`‹U+202E›`), which wrapping and truncation never cut:
        /// C1 controls, and the bidirectional embeddings, overrides and isolates (U+202A–202E,
        /// U+2066–2069), which could reorder what a terminal shows (Trojan Source).
        case marker
        /// Left out: the byte order mark U+FEFF, the deprecated format characters U+206A–206F and
        /// the interlinear annotation characters U+FFF9–FFFB.
        case drop
        /// The soft hyphen U+00AD: a place the line may break, drawn as `-` where it does, else nothing.
        case softHyphen
        /// The zero-width space U+200B: a place the line may break; never drawn.
        case zeroWidthSpace
        /// The word joiner U+2060: no break on either side of it; never drawn.
        case wordJoiner
    }

    /// The terminal formats' action for scalar `v` of a table's text; a newline is kept when `keepNewlines`
    /// (a label's lines), else drawn as `␊`.
    @inline(__always)
    package static func tableAction(_ v: UInt32, keepNewlines: Bool) -> TableAction {
        switch v {
        case 0x0A: keepNewlines ? .keep : .replace("\u{240A}")
        case 0x09: .replace(" ")
        case 0x00..<0x20: .replace(Unicode.Scalar(0x2400 + v)!)
        case 0x7F: .replace("\u{2421}")
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: .marker
        case 0xAD: .softHyphen
        case 0x200B: .zeroWidthSpace
        case 0x2060: .wordJoiner
        case 0xFEFF, 0x206A...0x206F, 0xFFF9...0xFFFB: .drop
        default: .keep
        }
    }

    /// Whether a scalar above ASCII would act on the terminal or the text's order
    /// instead of showing (see `UTF8Bytes.isHidden`).
    @inline(__always)
    static func isHidden(_ v: UInt32) -> Bool { UTF8Bytes.isHidden(v) }

    /// True when the text has nothing to replace, checked on its bytes: printable ASCII
    /// eight bytes at a time, other scalars decoded one by one.
    @inline(__always)
    package static func isClean(_ text: String) -> Bool {
        return text.withBorrowedUTF8 { bytes in
            var i = UTF8Bytes.printableASCIIPrefix(bytes)
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x80 {
                    if b < 0x20 || b == 0x7F { return false }
                    i += 1
                    continue
                }
                // Only scalars led by C2, D8, E1, E2 or EF can be hidden: skip the rest (CJK,
                // most symbols) by their length without decoding.
                switch b {
                case 0xC2, 0xD8, 0xE1, 0xE2, 0xEF:
                    guard let (v, length) = UTF8Bytes.decode(bytes, at: i), !isHidden(v) else { return false }
                    i += length
                default:
                    i += b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                }
            }
            return true
        }
    }
}
