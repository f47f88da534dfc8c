// The grid of configurations `cellkit preview` draws each sample in: the table's style,
// selected or not, the width (and a cell reused after a width change), light or dark, left to
// right or right to left, and a cell reused after another sample.

import CellKitDocuments
import CellKitModel
import CellKitRendering

/// The width a configuration is drawn at.
package enum PreviewWidth: String, CaseIterable, Sendable {
    /// 40 columns.
    case narrow
    /// 60 columns, the preview's default.
    case `default`
    /// 100 columns.
    case wide
    /// Drawn at `narrow`, then the same cell drawn again at `default`: a cell reused after a width change.
    case resized

    /// The columns the row is finally drawn at.
    package var columns: Int {
        switch self {
        case .narrow: 40
        case .default, .resized: 60
        case .wide: 100
        }
    }
}

/// One way of drawing a sample: the table's look and the row's state.
package struct PreviewConfiguration: Sendable, Hashable {
    /// The table's style.
    package var style: TableStyle
    /// Whether the row is drawn selected.
    package var selected: Bool
    /// The width.
    package var width: PreviewWidth
    /// The terminal's (or page's) background.
    package var theme: TerminalTheme
    /// Which way the row reads.
    package var direction: TextDirection
    /// Whether the row is drawn on a cell another sample used before.
    package var reused: Bool

    /// A configuration (see each property).
    package init(
        style: TableStyle, selected: Bool = false, width: PreviewWidth = .default, theme: TerminalTheme = .light,
        direction: TextDirection = .ltr, reused: Bool = false
    ) {
        (self.style, self.selected, self.width, self.theme) = (style, selected, width, theme)
        (self.direction, self.reused) = (direction, reused)
    }

    /// Its name, also its snapshot files' name: "grouped-selected-narrow-dark-rtl", "plain-unselected-default-light-ltr-reused".
    package var name: String {
        [style.rawValue, selected ? "selected" : "unselected", width.rawValue, theme.rawValue, direction.rawValue]
            .joined(separator: "-") + (reused ? "-reused" : "")
    }

    /// Its name without the theme ("grouped-selected-narrow-rtl"): the HTML page's configuration,
    /// light or dark by the page's button.
    package var nameWithoutTheme: String {
        [style.rawValue, selected ? "selected" : "unselected", width.rawValue, direction.rawValue]
            .joined(separator: "-") + (reused ? "-reused" : "")
    }

    /// The same configuration in `light`: what draws the same text and geometry (only colours differ).
    package var inLight: PreviewConfiguration {
        var light = self
        light.theme = .light
        return light
    }

    /// The grid, in the order it is drawn: every style, selected or not, light and dark, left to
    /// right and right to left at the default width; then every style and direction, unselected and
    /// light, at the narrow and wide widths, after a width change, and reused after another sample.
    package static let grid: [PreviewConfiguration] = {
        var grid: [PreviewConfiguration] = []
        for style in TableStyle.allCases {
            for selected in [false, true] {
                for theme in [TerminalTheme.light, .dark] {
                    for direction in [TextDirection.ltr, .rtl] {
                        grid.append(.init(style: style, selected: selected, theme: theme, direction: direction))
                    }
                }
            }
            for width in [PreviewWidth.narrow, .wide, .resized] {
                for direction in [TextDirection.ltr, .rtl] {
                    grid.append(.init(style: style, width: width, direction: direction))
                }
            }
            for direction in [TextDirection.ltr, .rtl] {
                grid.append(.init(style: style, direction: direction, reused: true))
            }
        }
        return grid
    }()
}
