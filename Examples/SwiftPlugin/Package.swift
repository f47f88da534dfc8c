// swift-tools-version:6.0
// A CellKit cell plugin written in Swift, as its own package: the Swift hooks and a
// one-file C descriptor, linked into one shared library, libGreetingCells.so.
import PackageDescription

let package = Package(
    name: "GreetingCells",
    products: [
        // `.dynamic`: a shared library the host can dlopen. It links both targets.
        .library(name: "GreetingCells", type: .dynamic, targets: ["GreetingCells", "GreetingCellsDescriptor"])
    ],
    dependencies: [
        // In your own package: .package(url: "https://…/CellKit.git", from: "1.0.0").
        .package(name: "CellKit", path: "../..")
    ],
    targets: [
        // The hooks: public @_cdecl functions over the CellKitPlugin layer.
        .target(name: "GreetingCells", dependencies: [.product(name: "CellKitPlugin", package: "CellKit")]),
        // The descriptor: C data, because Swift cannot export a C data symbol.
        // Depending on CellKitPlugin puts cellkit.h on its include path.
        .target(
            name: "GreetingCellsDescriptor",
            dependencies: [.product(name: "CellKitPlugin", package: "CellKit")],
            publicHeadersPath: "."),
    ]
)
