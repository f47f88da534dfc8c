// The preview's grid of configurations, its names, the samples seam and the documents drawn.

import CellKitModel
import CellKitPreview
import Testing

@Suite struct PreviewConfigurationTests {
    @Test func namesAreUniqueAndSpellEveryDimension() {
        let names = PreviewConfiguration.grid.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.contains("grouped-selected-default-dark-rtl"))
        #expect(names.contains("insetGrouped-unselected-resized-light-ltr"))
        #expect(names.contains("plain-unselected-default-light-rtl-reused"))
        #expect(names.contains("plain-unselected-narrow-light-ltr"))
        #expect(names.contains("grouped-unselected-wide-light-rtl"))
        #expect(names.count == 48)
    }
}
