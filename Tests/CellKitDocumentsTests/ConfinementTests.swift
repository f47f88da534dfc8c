// Documents are confined: they read only regular files inside their root folder,
// images inlined into HTML are checked by content, and no message quotes a file
// other than the document itself.

import CellKitRendering
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments

/// A folder `outer` holding `doc/` (where the tables are) and files beside `doc/`, outside its tree.
struct Sandbox {
    let outer: String
    var doc: String { outer + "/doc" }

    init(_ inside: [String: String], outside: [String: String] = [:], name: String = #function) throws {
        outer = FileAccess.realPath(try Render.write(outside, name: name))!
        try FileManager.default.createDirectory(atPath: outer + "/doc", withIntermediateDirectories: true)
        for (file, text) in inside { try text.write(toFile: outer + "/doc/" + file, atomically: true, encoding: .utf8) }
    }

    /// Loads doc/table.yaml with `root`.
    func load(root: String? = nil) throws -> TableDocument {
        try TableDocument(contentsOf: doc + "/table.yaml", root: root)
    }

    /// The error loading doc/table.yaml, with the sandbox's path written `<outer>`.
    func failure(root: String? = nil) -> String {
        do {
            _ = try load(root: root)
            return "no error"
        } catch {
            return "\(error)".replacingOccurrences(of: outer, with: "<outer>")
        }
    }
}

/// A 1×1 PNG.
let tinyPNG: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0xE2, 0x21, 0xBC, 0x33, 0x00, 0x00,
    0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]

@Suite("Documents read only files inside their root")
struct ConfinementTests {
    static let outside =
        "the folder this document may read files from; move the file there, or widen it with --root DIR"

    @Test("an asset file with ../ is refused, and accepted with a wider root")
    func assetOutside() throws {
        let box = try Sandbox(
            [
                "table.yaml": "assets: assets.yaml\nsections:\n  - {cell: Default, rows: [{text: a, image: x}]}\n",
                "assets.yaml": "images:\n  x: {glyph: x, file: ../secret.svg}\n",
            ], outside: ["secret.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"])
        #expect(
            box.failure()
                == "<outer>/doc/assets.yaml:2:23: '../secret.svg' is outside <outer>/doc, \(Self.outside)")
        let wide = try box.load(root: box.outer)
        #expect(wide.assets.image(named: "x")?.file == box.outer + "/secret.svg")
        #expect(wide.root == box.outer)
    }

    @Test("an absolute asset path is refused unless the root holds it")
    func assetAbsolute() throws {
        let box = try Sandbox([:], outside: ["secret.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"])
        try "images:\n  x: {glyph: x, file: \(box.outer)/secret.svg}\n".write(
            toFile: box.doc + "/assets.yaml", atomically: true, encoding: .utf8)
        try "assets: assets.yaml\nsections:\n  - {cell: Default, rows: 1}\n".write(
            toFile: box.doc + "/table.yaml", atomically: true, encoding: .utf8)
        #expect(
            box.failure()
                == "<outer>/doc/assets.yaml:2:23: '<outer>/secret.svg' is outside <outer>/doc, \(Self.outside)")
        #expect(try box.load(root: box.outer).assets.image(named: "x")?.inline?.mediaType == "image/svg+xml")
    }

    @Test("a stylesheet with ../ or an absolute path is refused, and accepted with a wider root")
    func stylesheetOutside() throws {
        let sheet = "styles:\n  logo: {left: 4}\n"
        for written in ["../sheet.yaml", "ABSOLUTE"] {
            let box = try Sandbox([:], outside: ["sheet.yaml": sheet], name: "stylesheetOutside\(written.count)")
            let path = written == "ABSOLUTE" ? box.outer + "/sheet.yaml" : written
            try "stylesheet: \(path)\nsections:\n  - {cell: Default, rows: 1}\n".write(
                toFile: box.doc + "/table.yaml", atomically: true, encoding: .utf8)
            let shown = path.replacingOccurrences(of: box.outer, with: "<outer>")
            #expect(box.failure() == "<outer>/doc/table.yaml:1:13: '\(shown)' is outside <outer>/doc, \(Self.outside)")
            #expect(try box.load(root: box.outer).stylesheet.styles["logo"]?.left == 4)
        }
    }

    @Test("rowsFrom with ../ is refused, and accepted with a wider root")
    func rowsOutside() throws {
        let box = try Sandbox(
            ["table.yaml": "sections:\n  - {cell: Default, rowsFrom: ../rows.csv}\n"],
            outside: ["rows.csv": "text\nsecret\n"])
        #expect(box.failure() == "<outer>/doc/table.yaml:2:31: '../rows.csv' is outside <outer>/doc, \(Self.outside)")
        let table = try DocumentTable(try box.load(root: box.outer), registry: Render.registry)
        #expect(try table.numberOfRows(inSection: 0) == 1)
    }

    @Test("a symbolic link inside the folder that leads outside is refused")
    func symlinkOutside() throws {
        let box = try Sandbox(
            ["table.yaml": "stylesheet: sheet.yaml\nsections:\n  - {cell: Default, rows: 1}\n"],
            outside: ["sheet.yaml": "styles:\n  a: {left: 1}\n"])
        try FileManager.default.createSymbolicLink(
            atPath: box.doc + "/sheet.yaml", withDestinationPath: "../sheet.yaml")
        #expect(
            box.failure()
                == "<outer>/doc/table.yaml:1:13: 'sheet.yaml' leads through a symbolic link to <outer>/sheet.yaml, outside <outer>/doc, \(Self.outside)"
        )
        // A link that stays inside is followed.
        try "styles:\n  a: {left: 2}\n".write(toFile: box.doc + "/real.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: box.doc + "/sheet.yaml")
        try FileManager.default.createSymbolicLink(atPath: box.doc + "/sheet.yaml", withDestinationPath: "real.yaml")
        #expect(try box.load().stylesheet.styles["a"]?.left == 2)
    }

    @Test("a root that does not hold the document is refused")
    func rootElsewhere() throws {
        let box = try Sandbox(["table.yaml": "sections:\n  - {cell: Default, rows: 1}\n"])
        try FileManager.default.createDirectory(atPath: box.outer + "/other", withIntermediateDirectories: true)
        #expect(
            box.failure(root: box.outer + "/other")
                == "<outer>/doc/table.yaml:1:1: --root <outer>/other does not hold the document (in <outer>/doc); give a folder that holds it, or leave --root out"
        )
        #expect(
            box.failure(root: box.outer + "/missing")
                == "<outer>/doc/table.yaml:1:1: --root <outer>/missing is not a folder; give the folder the document may read files from"
        )
    }

    @Test("a file that is not a stylesheet is named, never quoted")
    func foreignTextNotQuoted() throws {
        let secret = "root:$6$hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"
        let box = try Sandbox(
            ["table.yaml": "stylesheet: ../shadow\nsections:\n  - {cell: Default, rows: 1}\n"],
            outside: ["shadow": secret])
        let message = box.failure(root: box.outer)
        #expect(message == "<outer>/shadow:1:1: the stylesheet has a key that is not one of: include, styles")
        try "a secret sentence\n".write(toFile: box.outer + "/shadow", atomically: true, encoding: .utf8)
        #expect(box.failure(root: box.outer) == "<outer>/shadow:1:1: expected the stylesheet (a mapping), found a text")
        // A mapping with other keys, and a YAML error with duplicate keys: neither quotes the file.
        for text in ["password: hunter2\n", "token: a\ntoken: b\n"] {
            try text.write(toFile: box.outer + "/shadow", atomically: true, encoding: .utf8)
            let message = box.failure(root: box.outer)
            #expect(!message.contains("hunter2") && !message.contains("password") && !message.contains("token"))
        }
        #expect(
            box.failure(root: box.outer)
                == "<outer>/shadow:2:1: a mapping here names a key twice (first at 1:1); each key may appear once")
    }

    @Test("a folder, FIFO or device where a file is expected is refused without blocking")
    func notRegular() throws {
        let box = try Sandbox(["table.yaml": "stylesheet: folder\nsections:\n  - {cell: Default, rows: 1}\n"])
        try FileManager.default.createDirectory(atPath: box.doc + "/folder", withIntermediateDirectories: true)
        #expect(
            box.failure()
                == "<outer>/doc/table.yaml:1:13: 'folder' is a folder, not a regular file; name a regular file")
        let device = try Sandbox(["table.yaml": "stylesheet: /dev/zero\nsections:\n  - {cell: Default, rows: 1}\n"])
        #expect(
            device.failure(root: "/")
                == "<outer>/doc/table.yaml:1:13: '/dev/zero' is a character device, not a regular file; name a regular file"
        )
    }

    @Test("a FIFO as rowsFrom is refused without hanging")
    func fifoRows() throws {
        let box = try Sandbox(["table.yaml": "sections:\n  - {cell: Default, rowsFrom: rows.csv}\n"])
        #expect(mkfifo(box.doc + "/rows.csv", 0o600) == 0)
        let started = ContinuousClock.now
        #expect(
            box.failure()
                == "<outer>/doc/table.yaml:2:31: 'rows.csv' is a FIFO (named pipe), not a regular file; name a regular file"
        )
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    // MARK: Images

    /// Renders doc/table.yaml (one row showing image `x`, whose file is `file`) as HTML.
    func html(_ file: String, _ bytes: [UInt8], name: String = #function) throws -> (String, [String], Sandbox) {
        let box = try Sandbox(
            [
                "table.yaml": "assets: assets.yaml\nsections:\n  - {cell: Default, rows: [{text: a, image: x}]}\n",
                "assets.yaml": "images:\n  x: {glyph: X, file: \(file)}\n",
            ], name: name)
        #expect(FileManager.default.createFile(atPath: box.doc + "/" + file, contents: Data(bytes)))
        let (output, warnings) = try Render.table(box.doc + "/table.yaml", .html)
        return (output, warnings.map { $0.replacingOccurrences(of: box.outer, with: "<outer>") }, box)
    }

    @Test("a PNG is inlined; a file named .png that is not one is not, with a warning and the placeholder")
    func notPNG() throws {
        let (good, goodWarnings, _) = try html("x.png", tinyPNG)
        #expect(good.contains("data:image/png;base64,\(Data(tinyPNG).base64EncodedString())"))
        #expect(goodWarnings.isEmpty)

        let (bad, warnings, _) = try html("x.png", Array("root:*:19000:0:99999:7:::\n".utf8))
        #expect(!bad.contains("base64"))
        #expect(!bad.contains("root:"))
        #expect(bad.contains("<span>▢</span>"))
        #expect(
            warnings == [
                "<outer>/doc/assets.yaml:2:23: image 'x': 'x.png' is not a PNG or SVG image (checked by its content, not its name); HTML draws the placeholder ▢"
            ])
    }

    @Test("an SVG with a script or an external reference is not inlined")
    func unsafeSVG() throws {
        let cases: [(String, String)] = [
            (
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
                "is an SVG with a script or active content"
            ),
            (
                "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>",
                "is an SVG with a script or active content"
            ),
            (
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"file:///etc/passwd\"/></svg>",
                "is an SVG that refers to other files or addresses"
            ),
            (
                "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY x SYSTEM \"/etc/passwd\">]><svg>&x;</svg>",
                "is an SVG that declares entities"
            ),
            // Names in any case, as an HTML parser reads them; a Unicode space before an attribute;
            // a comment and a declaration before the element; a reference in CSS.
            ("\u{FEFF}<!-- a --><SVG><ScRiPt>alert(1)</sCrIpT></SVG>", "is an SVG with a script or active content"),
            ("<svg\u{A0}x=\"1\"\u{2003}OnLoad = 'alert(1)'/>", "is an SVG with a script or active content"),
            (
                "<?xml version=\"1.0\"?>\n<svg><a XLINK:HREF = \"https://x.example\"/></svg>",
                "is an SVG that refers to other files"
            ),
            ("<svg><rect style=\"fill: URL( 'https://x.example' )\"/></svg>", "is an SVG that refers to other files"),
            ("<svg><rect src=></svg>", "is an SVG that refers to other files"),
            ("<!DOCTYPE svg>\n<svgx/>", "is not a PNG or SVG image"),
            ("<svg", "is not a PNG or SVG image"),
        ]
        for (svg, why) in cases {
            let (output, warnings, _) = try html("x.svg", Array(svg.utf8))
            #expect(!output.contains("base64"), "\(svg)")
            #expect(warnings.count == 1 && warnings[0].contains("'x.svg' \(why)"), "\(warnings)")
        }
        // Fragments are references inside the image; "on" inside a word or a value is no attribute.
        let safe = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><use href=\"#a\"/></svg>",
            "<?xml version=\"1.0\"?>\n<!-- on=1 --><svg><g fill=\"url(#g)\" id=\"icon\"><text>won = 2</text></g></svg>",
        ]
        for svg in safe {
            let (output, warnings, _) = try html("x.svg", Array(svg.utf8))
            #expect(output.contains("data:image/svg+xml;base64,"), "\(svg)")
            #expect(warnings.isEmpty, "\(svg)")
        }
    }

    @Test("an image larger than the limit is not inlined")
    func largeImage() throws {
        let big = tinyPNG + [UInt8](repeating: 0, count: DocumentLimits.imageBytes)
        let (output, warnings, _) = try html("x.png", big)
        #expect(!output.contains("base64"))
        #expect(
            warnings == [
                "<outer>/doc/assets.yaml:2:23: image 'x': 'x.png' is larger than 1 MiB; an inlined image may take at most that (the limit, DocumentLimits.imageBytes); HTML draws the placeholder ▢"
            ])
    }

    @Test("the bundled tables keep working: their stylesheet and assets are inside Manifests/Tables")
    func manifests() throws {
        let (output, warnings) = try Render.table(Render.manifest("showcase.yaml"), .html)
        #expect(warnings.isEmpty)
        #expect(output.contains("data:image/svg+xml;base64,"))
    }
}
