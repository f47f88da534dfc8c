/* Linked into each C plugin this package builds (FoobarCells, ProjectCells), and nothing else.
 *
 * SwiftPM links a library product with `swiftc`, which links the Swift runtime into it: the
 * `swiftrt.o` start-up object, whose constructor registers the library's Swift metadata (a C
 * plugin has none), and `libswiftCore.so` (10 MB to map, relocate and initialise in the worker
 * each time the plugin loads). A plugin built with `cc`, as a plugin author builds one, has
 * neither. Here, `-nostartfiles` (this target's linker setting) leaves out `swiftrt.o`, and the
 * entry below reaches the link line ahead of `-lswiftCore`: `swift-autolink-extract` copies this
 * section into the product's link, as it does for Swift's own `-l` entries, so the linker keeps
 * only the libraries the plugin uses (BENCHMARKS.md, "Measurements behind the code":
 * CPluginLinking). `BundledPluginLinkTests` (CellKitDiscoveryTests) checks that the bundled C
 * plugins need libc alone. */

/* Not instrumented by AddressSanitizer (the sanitizer builds): its metadata for the string would
 * refer to a section the linker keeps out of the library. */
__attribute__((used, section(".swift1_autolink_entries"), no_sanitize("address")))
static const char linking[] = "-Wl,--as-needed";
