// `cellkit render` discovers plugins on a helper thread while it parses the document: the
// catalog it hands the render is the one discovery on this thread finds, with no cache, and
// with one it writes (cold) and then reads (warm).

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitCommand
@testable import CellKitDiscovery

@Suite("Discovery beside the document's parse")
struct DiscoveryAheadTests {
    @Test("the catalog found on the helper thread is the one found on this thread, uncached, cold and warm")
    func sameCatalog() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let expected = Self.text(Catalog(options: Fixtures.options([plugins])))  // no cache: read from the files
        var cached = Fixtures.options([plugins])
        (cached.useCache, cached.cacheFolder) = (true, cache)
        #expect(!FileManager.default.fileExists(atPath: cache + "/" + RegistryCache.fileName), "cold")
        for (options, what) in [(Fixtures.options([plugins]), "uncached"), (cached, "cold"), (cached, "warm")] {
            let ahead = DiscoveryAhead(options)
            let found = ahead.catalog()
            #expect(!found.registrations.isEmpty, "\(what)")
            #expect(Self.text(found) == expected, "\(what)")
            #expect(Self.text(ahead.catalog()) == expected, "\(what): asked again")
            if what == "cold" {
                #expect(FileManager.default.fileExists(atPath: cache + "/" + RegistryCache.fileName), "written")
            }
        }
    }

    /// A catalog's plugins, registrations and rejections, as text.
    static func text(_ catalog: Catalog) -> String {
        String(decoding: DerivedOutputTests.describe(catalog), as: UTF8.self)
    }
}
