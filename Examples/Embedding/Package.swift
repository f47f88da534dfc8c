// swift-tools-version:6.0
// A program that embeds CellKit: `embed TABLE PLUGIN_DIR` renders a table document
// as text, finding plugins in PLUGIN_DIR only.
import PackageDescription

let package = Package(
    name: "Embedding",
    dependencies: [
        // `name:` makes the package known as "CellKit" whatever its folder is called
        // (a path dependency's identity is otherwise its folder's name).
        .package(name: "CellKit", path: "../..")
    ],
    targets: [
        .executableTarget(name: "embed", dependencies: [.product(name: "CellKit", package: "CellKit")])
    ]
)
