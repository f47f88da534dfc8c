// `cellkit render` discovers plugins on a helper thread while it parses the document: the
// catalog it hands the render is the one discovery on this thread finds, cached or not.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitCommand
@testable import CellKitDiscovery

@Suite("Discovery beside the document's parse")
struct DiscoveryAheadTests {
    @Test("the catalog found on the helper thread is the one found on this thread, cold and warm")
    func sameCatalog() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        var cached = Fixtures.options([plugins])
        (cached.useCache, cached.cacheFolder) = (true, cache)
        for (options, what) in [(Fixtures.options([plugins]), "uncached"), (cached, "cold"), (cached, "warm")] {
            let ahead = DiscoveryAhead(options)
            let expected = Self.text(Catalog(options: options))
            let found = ahead.catalog()
            #expect(!found.registrations.isEmpty, "\(what)")
            #expect(Self.text(found) == expected, "\(what)")
            #expect(Self.text(ahead.catalog()) == expected, "\(what): asked again")
        }
    }

    /// A catalog's plugins, registrations and rejections, as text.
    static func text(_ catalog: Catalog) -> String {
        String(decoding: DerivedOutputTests.describe(catalog), as: UTF8.self)
    }
}
