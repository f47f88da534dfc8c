// The bounds every document, stylesheet, asset catalog and data file is held to,
// so that an untrusted document can neither exhaust memory or time nor hang a read.

/// The limits documents are checked against when they load. Each is a documented number;
/// exceeding one is an error at the place it is exceeded, naming the limit.
public enum DocumentLimits {
    /// The largest document, stylesheet or asset catalog file: 1 MiB. Rows beyond that belong in a
    /// data file (`rowsFrom:`), which streams and has no size limit.
    public static let fileBytes = 1 << 20
    /// The most YAML aliases (`*name`) a file may use: 100.
    public static let aliases = 100
    /// The most values (mappings, lists and texts, each alias counted as often as it is used) a file may
    /// expand to: 250,000. This bounds what aliases can multiply.
    public static let values = 250_000
    /// The deepest nesting of mappings and lists in a file: 64 levels.
    public static let depth = 64
    /// The longest text (a key or a value) in a file: 64 KiB of UTF-8.
    public static let textBytes = 64 << 10
    /// The most sections a document may have: 10,000.
    public static let sections = 10_000
    /// The most rows a document may write inline, over all its sections: 50,000. More rows stream from a
    /// data file (`rowsFrom:`).
    public static let inlineRows = 50_000
    /// The most styles a stylesheet may define: 1,000.
    public static let styles = 1_000
    /// The most stylesheet files a document may read, those it lists (`stylesheet:`) and those they
    /// include (`include:`) together: 256. A file read more than once counts each time it is read.
    public static let stylesheetFiles = 256
    /// The most stylesheet bytes a document may read, over every file `stylesheetFiles` counts
    /// (each time it is read): 8 MiB.
    public static let stylesheetBytes = 8 << 20
    /// The most images an asset catalog may name: 1,000.
    public static let images = 1_000
    /// The largest image file inlined into HTML: 1 MiB. A larger one draws the placeholder, with a warning.
    public static let imageBytes = 1 << 20
    /// The most image bytes one asset catalog may inline into HTML, over all its images: 8 MiB.
    public static let catalogImageBytes = 8 << 20
}
