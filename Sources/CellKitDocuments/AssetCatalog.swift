// The asset catalog: image names to what draws them (seed 000's topRow.png,
// seed 003's logos). A missing image is drawn as a placeholder, never fatal.

import CellKitModel
import CellKitText
import Foundation

/// Images by name, each with a glyph for the terminal and, for HTML, a file or an emoji.
public struct AssetCatalog: Sendable {
    /// One image.
    public struct Image: Sendable, Equatable {
        /// Text drawn in the terminal (one or two columns is usual).
        public var glyph: String
        /// Drawn in HTML when there is no file.
        public var emoji: String?
        /// An SVG or PNG file for HTML, as an absolute path.
        public var file: String?
        /// A colour used where the image fills a background (seed 000's row backgrounds).
        public var color: Color?
        /// The image's text alternative for screen readers ("Apple logo"); nil for a decorative image,
        /// which HTML hides from them (an asset's key is not a description).
        public var label: String?
        /// The file's bytes as checked when the catalog loaded (a PNG, or an SVG with no scripts or external
        /// references); what HTML inlines. Nil for an image built in code, whose `file` is checked when drawn.
        package var inline: InlineImage?

        /// An image drawn as `glyph` in the terminal; in HTML as `file` if given, else `emoji`, else the glyph.
        public init(glyph: String, emoji: String? = nil, file: String? = nil, color: Color? = nil, label: String? = nil)
        {
            (self.glyph, self.emoji, self.file, self.color, self.label) = (glyph, emoji, file, color, label)
        }
    }

    /// What a missing image is drawn as.
    package static let placeholder = Image(glyph: "▢", emoji: "▢")

    /// The images by name; names are case-sensitive.
    public var images: [String: Image]
    /// The file the catalog came from, for warnings; nil for one built in code.
    public var source: String?

    /// A catalog of `images`; `source` names its file in warnings. The default is an empty catalog,
    /// in which every image is missing.
    public init(images: [String: Image] = [:], source: String? = nil) {
        (self.images, self.source) = (images, source)
    }

    /// The image named `name`, or nil.
    public func image(named name: String) -> Image? { images[name] }
}

/// An image file's bytes that HTML may inline, and their media type.
package struct InlineImage: Sendable, Equatable {
    /// `image/png` or `image/svg+xml`, from the content (never the file name).
    package let mediaType: String
    /// The file's bytes, at most `DocumentLimits.imageBytes`.
    package let bytes: [UInt8]
}

/// Reading an image file for HTML: a regular file, at most `DocumentLimits.imageBytes`, that is a PNG (by its
/// signature and header chunk) or an SVG (UTF-8 text whose root element is `<svg>`, with no scripts, event
/// handlers, entities, foreign objects or references outside itself).
package enum ImageFile {
    /// The checked image at `path` (a real path), or why it cannot be inlined; `name` is how messages name
    /// it, and `room` how many bytes the catalog may still inline. Messages never quote the file.
    package static func load(_ path: String, name: String, room: Int = DocumentLimits.imageBytes)
        -> Result<InlineImage, FileProblem>
    {
        let fd: Int32
        do throws(FileProblem) { fd = try FileAccess.openRegular(path, name: name) } catch { return .failure(error) }
        defer { close(fd) }
        return load(descriptor: fd, name: name, room: room)
    }

    /// The checked image open at `fd` (`FileAccess.openRegular`), as `load(_:name:room:)` checks it; `fd`
    /// stays open.
    static func load(descriptor fd: Int32, name: String, room: Int) -> Result<InlineImage, FileProblem> {
        let bytes: [UInt8]
        do throws(FileProblem) {
            bytes = try FileAccess.read(
                descriptor: fd, name: name, limit: DocumentLimits.imageBytes,
                tooLarge: "an inlined image may take at most that (the limit, DocumentLimits.imageBytes)")
        } catch { return .failure(error) }
        guard bytes.count <= room else {
            return .failure(
                FileProblem(
                    "'\(name)' would take the catalog's inlined images past \(FileAccess.sizeText(DocumentLimits.catalogImageBytes)) (the limit, DocumentLimits.catalogImageBytes)"
                ))
        }
        if isPNG(bytes) { return .success(InlineImage(mediaType: "image/png", bytes: bytes)) }
        switch svgProblem(bytes) {
        case nil: return .success(InlineImage(mediaType: "image/svg+xml", bytes: bytes))
        case let why?: return .failure(FileProblem("'\(name)' \(why)"))
        }
    }

    /// The PNG signature, then an IHDR chunk.
    static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 16 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            && bytes[12..<16].elementsEqual("IHDR".utf8)
    }

    /// Why `bytes` are not a self-contained SVG, or nil if they are one.
    /// Read as bytes with ASCII letters folded to lower case, as an HTML parser reads tag and attribute
    /// names (a String lowercased and searched through Foundation was a large part of a small render's
    /// instructions: BENCHMARKS.md, "Measurements behind the code": AssetCatalog.svg); a byte of 0x80
    /// or above counts as whitespace where that would flag the image, so that no Unicode space hides
    /// an attribute.
    static func svgProblem(_ bytes: [UInt8]) -> String? {
        let notImage = "is not a PNG or SVG image (checked by its content, not its name)"
        guard bytes.withUnsafeBufferPointer({ UTF8Bytes.isValid($0) }) else { return notImage }
        let folded = bytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }
        return folded.withUnsafeBufferPointer { SVGText($0).problem(notImage: notImage) }
    }
}

/// An SVG's bytes, ASCII letters in lower case, searched for what would make it unsafe to inline.
private struct SVGText {
    let bytes: UnsafeBufferPointer<UInt8>
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Why the text is not a self-contained SVG, or nil if it is one.
    func problem(notImage: String) -> String? {
        var i = starts("\u{FEFF}", at: 0) ? 3 : 0
        // The prolog: blanks, an XML declaration, comments, a DOCTYPE without an internal subset.
        while true {
            i = skipBlanks(from: i)
            if starts("<?xml", at: i), let end = find("?>", from: i) {
                i = end + 2
            } else if starts("<!--", at: i), let end = find("-->", from: i) {
                i = end + 3
            } else if starts("<!doctype", at: i), let end = find(">", from: i) {
                if find("[", from: i, before: end) != nil {
                    return "is an SVG that declares entities; HTML inlines only self-contained images"
                }
                i = end + 1
            } else {
                break
            }
        }
        guard starts("<svg", at: i), i + 4 < bytes.count,
            isBlank(at: i + 4) || bytes[i + 4] == 0x3E || bytes[i + 4] == 0x2F
        else { return notImage }
        let active = [
            "<script", "<!entity", "<foreignobject", "javascript:", "<iframe", "<embed", "<object", "@import",
        ]
        if active.contains(where: { find($0, from: i) != nil }) || hasEventHandler(from: i) {
            return "is an SVG with a script or active content; HTML inlines only self-contained images"
        }
        if hasExternalReference(from: i) {
            return "is an SVG that refers to other files or addresses; HTML inlines only self-contained images"
        }
        return nil
    }

    /// An attribute `on…=` (onload, onclick, …) after a blank or a quote.
    private func hasEventHandler(from start: Int) -> Bool {
        var at = start
        while let r = find("on", from: at) {
            at = r + 2
            guard r > 0, isBlank(at: r - 1) || bytes[r - 1] == 0x22 || bytes[r - 1] == 0x27 else { continue }
            var k = at
            while k < bytes.count, bytes[k] &- 0x61 < 26 || bytes[k] >= 0x80 { k += 1 }  // the name's letters
            guard k > at else { continue }
            k = skipBlanks(from: k)
            if k < bytes.count, bytes[k] == 0x3D { return true }
        }
        return false
    }

    /// An `href` (or `xlink:href`, `src`) whose value is not a fragment (`#id`), or a `url(` that is not one.
    private func hasExternalReference(from start: Int) -> Bool {
        for attribute in ["href", "src"] {
            var at = start
            while let r = find(attribute, from: at) {
                at = r + attribute.utf8.count
                var k = skipBlanks(from: at)
                guard k < bytes.count, bytes[k] == 0x3D else { continue }
                k = skipBlanks(from: k + 1)
                if k < bytes.count, bytes[k] == 0x22 || bytes[k] == 0x27 { k += 1 }
                if k >= bytes.count || bytes[k] != 0x23 { return true }
            }
        }
        var at = start
        while let r = find("url(", from: at) {
            at = r + 4
            var k = at
            while k < bytes.count, isBlank(at: k) || bytes[k] == 0x22 || bytes[k] == 0x27 { k += 1 }
            if k >= bytes.count || bytes[k] != 0x23 { return true }
        }
        return false
    }

    /// Where `needle` first occurs at or after `from` (and starts before `before`), or nil: memchr
    /// to each place its first byte is, then the rest compared.
    private func find(_ needle: String, from: Int, before: Int = .max) -> Int? {
        let first = needle.utf8.first!, n = bytes.count
        var at = from
        while at < min(n, before) {
            guard let hit = memchr(bytes.baseAddress! + at, Int32(first), n - at) else { return nil }
            at = UnsafeRawPointer(hit) - UnsafeRawPointer(bytes.baseAddress!)
            if at >= before { return nil }
            if starts(needle, at: at) { return at }
            at += 1
        }
        return nil
    }

    private func starts(_ prefix: String, at i: Int) -> Bool {
        bytes.count - i >= prefix.utf8.count && bytes[i..<i + prefix.utf8.count].elementsEqual(prefix.utf8)
    }

    /// Whether the character at `i` is whitespace: the scalar there (any Unicode space).
    private func isBlank(at i: Int) -> Bool {
        let b = bytes[i]
        if b < 0x80 { return b == 0x20 || b &- 0x09 < 5 }  // space, tab, LF, VT, FF, CR
        if b < 0xC0 { return isBlankScalar(endingAt: i) }  // a continuation: the scalar it ends
        return UTF8Bytes.decode(bytes, at: i).map { Unicode.Scalar($0.value)?.properties.isWhitespace == true } ?? false
    }

    /// Whether the scalar whose last byte is at `i` is whitespace (a character before a name).
    private func isBlankScalar(endingAt i: Int) -> Bool {
        var lead = i
        while lead > 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        return UTF8Bytes.decode(bytes, at: lead).map { Unicode.Scalar($0.value)?.properties.isWhitespace == true }
            ?? false
    }

    /// The first index at or after `i` that is not whitespace.
    private func skipBlanks(from i: Int) -> Int {
        var k = i
        while k < bytes.count, isBlank(at: k) {
            k += bytes[k] < 0x80 ? 1 : (UTF8Bytes.decode(bytes, at: k)?.length ?? 1)
        }
        return k
    }
}
