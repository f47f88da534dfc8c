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
        /// The file's bytes as checked when the catalog loaded (a PNG, or an SVG with no scripts or external
        /// references); what HTML inlines. Nil for an image built in code, whose `file` is checked when drawn.
        package var inline: InlineImage?

        /// An image drawn as `glyph` in the terminal; in HTML as `file` if given, else `emoji`, else the glyph.
        public init(glyph: String, emoji: String? = nil, file: String? = nil, color: Color? = nil) {
            (self.glyph, self.emoji, self.file, self.color) = (glyph, emoji, file, color)
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
        let bytes: [UInt8]
        do throws(FileProblem) {
            bytes = try FileAccess.read(
                path, name: name, limit: DocumentLimits.imageBytes,
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
    static func svgProblem(_ bytes: [UInt8]) -> String? {
        let notImage = "is not a PNG or SVG image (checked by its content, not its name)"
        guard bytes.withUnsafeBufferPointer({ UTF8Bytes.isValid($0) }) else { return notImage }
        var text = Substring(String(decoding: bytes, as: UTF8.self).lowercased())
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        // The prolog: blanks, an XML declaration, comments, a DOCTYPE without an internal subset.
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!--"), let end = text.range(of: "-->") {
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!doctype"), let end = text.firstIndex(of: ">") {
                if text[..<end].contains("[") {
                    return "is an SVG that declares entities; HTML inlines only self-contained images"
                }
                text = text[text.index(after: end)...]
            } else {
                break
            }
        }
        guard text.hasPrefix("<svg"), let next = text.dropFirst(4).first,
            next.isWhitespace || next == ">" || next == "/"
        else { return notImage }
        let active = [
            "<script", "<!entity", "<foreignobject", "javascript:", "<iframe", "<embed", "<object", "@import",
        ]
        if active.contains(where: { text.contains($0) }) || hasEventHandler(text) {
            return "is an SVG with a script or active content; HTML inlines only self-contained images"
        }
        if hasExternalReference(text) {
            return "is an SVG that refers to other files or addresses; HTML inlines only self-contained images"
        }
        return nil
    }

    /// An attribute `on…=` (onload, onclick, …).
    private static func hasEventHandler(_ text: Substring) -> Bool {
        var rest = text[...]
        while let r = rest.range(of: "on") {
            let before = rest[..<r.lowerBound].last
            let name = rest[r.upperBound...].prefix { $0.isLetter }
            let after = rest[r.upperBound...].dropFirst(name.count).drop { $0.isWhitespace }.first
            if let before, before.isWhitespace || before == "\"" || before == "'", !name.isEmpty, after == "=" {
                return true
            }
            rest = rest[r.upperBound...]
        }
        return false
    }

    /// An `href` (or `xlink:href`, `src`) whose value is not a fragment (`#id`), or a `url(` that is not one.
    private static func hasExternalReference(_ text: Substring) -> Bool {
        for attribute in ["href", "src"] {
            var rest = text[...]
            while let r = rest.range(of: attribute) {
                let value = rest[r.upperBound...].drop { $0.isWhitespace }
                if value.first == "=" {
                    let quoted = value.dropFirst().drop { $0.isWhitespace }
                    let inner = quoted.first == "\"" || quoted.first == "'" ? quoted.dropFirst() : quoted
                    if inner.first != "#" { return true }
                }
                rest = rest[r.upperBound...]
            }
        }
        var rest = text[...]
        while let r = rest.range(of: "url(") {
            let inner = rest[r.upperBound...].drop { $0.isWhitespace || $0 == "\"" || $0 == "'" }
            if inner.first != "#" { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }
}
