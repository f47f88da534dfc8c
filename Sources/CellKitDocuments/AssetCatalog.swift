// The asset catalog: image names to what draws them (seed 000's topRow.png,
// seed 003's logos). A missing image is drawn as a placeholder, never fatal.

import CellKitModel
import CellKitText

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
