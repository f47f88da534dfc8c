// A subview label's look is kept from the row before when its view's style stamp and the row's
// state are the same (`PlacedView.styleStamp`, `View.styleStamp`): a row laid out over the row
// before, after any change a hook or a program can make, must be the row a fresh layout gives.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitTestSupport
import Testing

@testable import CellKitRendering

@Suite("CellLayout: a subview's style kept by its stamp")
struct StyleStampTests {
    @Test("a row laid out over the row before, after random changes, is a fresh layout's row")
    func keptStyleIsFresh() throws {
        var random = SplitMix64(seed: 0x57A_3B5)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        // Two cells laid out in turns into one row, as a queue's cells are: every kind of view
        // a slot may hold between two of a subview label's rows (standard labels, an image and a
        // plain subview before the labels, an accessory), each shown or hidden at random.
        let cells = try (0..<2).map { _ in try Stamped() }
        let colors: [Color?] = [nil, Color(red: 200, green: 0, blue: 0), Color(red: 0, green: 0, blue: 200)]
        let texts = ["Item 7", "a description long enough to wrap over lines", "日本語 7", "", "שלום 7"]
        let layout = CellLayout(assets: AssetCatalog())
        var kept = layout.layout(cells[0].cell, width: 60, height: nil)
        var memo = CellLayout.LineMemo()  // kept beside the row from row to row, as the renderer keeps it
        var keptStyles = 0
        for step in 0..<6_000 {
            let stamped = cells[random.next() % 4 == 0 ? 1 : 0]
            let cell = stamped.cell
            for _ in 0..<Int(random.next() % 3) {  // none to two changes a row: most rows keep their style
                let label: View = pick(stamped.labels + [cell.textLabel!, cell.detailTextLabel!])
                switch random.next() % 18 {
                case 0: label.textColor = pick(colors)
                case 1: label.highlightedTextColor = pick(colors)
                case 2: label.backgroundColor = pick(colors)
                case 3: label.fontWeight = pick(FontWeight.allCases)
                case 4: label.fontSize = pick([17, 12, 20])
                case 5: label.alignment = pick(TextAlignment.allCases)
                case 6: label.lineBreakMode = pick(LineBreakMode.allCases)
                case 7: label.numberOfLines = pick([0, 1, 2])
                case 8: label.isHidden = random.next() % 4 == 0  // a hidden view moves the others' places
                case 9: cell.isSelected.toggle()
                case 10: cell.selectionStyle = pick(SelectionStyle.allCases)
                case 11: cell.context.direction = pick([.ltr, .rtl, .auto])
                case 12: cell.style = pick([.default, .subtitle, .value1, .value2])
                case 13: cell.accessoryType = pick(AccessoryType.allCases)
                case 14: stamped.others[Int(random.next() % 2)].isHidden.toggle()  // the image, the plain view
                case 15: cell.accessoryView?.isHidden.toggle()
                case 16 where stamped.labels.count < 5:
                    stamped.labels.append(
                        try cell.addSubview(
                            .label, frame: Rect(x: 34, y: 0, width: 10, height: 1), tag: stamped.labels.count + 10))
                default: label.frame.width = pick([8, 12, 20])
                }
            }
            for label in stamped.labels { label.text = pick(texts) }
            cell.textLabel.text = random.next() % 2 == 0 ? pick(texts) : nil
            cell.detailTextLabel.text = random.next() % 2 == 0 ? pick(texts) : nil
            let height: Int? = random.next() % 5 == 0 ? 2 : nil
            let before = kept.views.map(\.styleStamp)
            layout.layout(cell, width: 60, height: height, into: &kept, memo: &memo)
            let fresh = layout.layout(cell, width: 60, height: height)
            #expect(kept.views == fresh.views, "step \(step)")
            #expect(kept.views.map(\.styleStamp) == fresh.views.map(\.styleStamp), "step \(step)")
            // A place whose stamp is what it was, and set, kept its style: no style was worked out.
            keptStyles += zip(before, kept.views).filter { $0 == $1.styleStamp && $0 != 0 }.count
        }
        #expect(keptStyles > 2_000, "the kept style's path was taken \(keptStyles) times")
    }

    /// A cell of subview labels with an image and a plain subview before them and an accessory view.
    final class Stamped {
        let cell: Cell
        var labels: [View]
        let others: [View]

        init() throws {
            cell = Cell(reuseIdentifier: try CellIdentifier("Stamped"), style: .default)
            let image = try cell.addSubview(.image, frame: Rect(x: 0, y: 0, width: 2, height: 1), tag: 1)
            image.imageName = "missing"
            let plain = try cell.addSubview(.plain, frame: Rect(x: 0, y: 1, width: 4, height: 1), tag: 2)
            plain.backgroundColor = Color(red: 9, green: 9, blue: 9)
            others = [image, plain]
            labels = [try cell.addSubview(.label, frame: Rect(x: 3, y: 0, width: 12, height: 1), tag: 3)]
            labels.append(try cell.addSubview(.label, frame: Rect(x: 16, y: 0, width: 20, height: 3), tag: 4))
            let accessory = cell.setAccessoryView(.label, frame: Rect(x: 0, y: 0, width: 3, height: 1))
            accessory.text = "›"
            accessory.isHidden = true
        }
    }

    /// A property set to the value it has keeps the view's stamp (a hook that sets the same colour
    /// on every row keeps its rows' styles); any other value takes a new one, never one seen before.
    @Test func stampChangesWithTheValue() throws {
        let cell = Cell(reuseIdentifier: try CellIdentifier("Stamped"), style: .default)
        let label = try cell.addSubview(.label, frame: Rect(x: 0, y: 0, width: 12, height: 1), tag: 1)
        let other = try cell.addSubview(.label, frame: Rect(x: 0, y: 0, width: 12, height: 1), tag: 2)
        var seen: Set = [label.styleStamp, other.styleStamp]
        #expect(seen.count == 2 && !seen.contains(0))
        let changes: [(View) -> Void] = [
            { $0.textColor = Color(red: 1, green: 2, blue: 3) },
            { $0.highlightedTextColor = Color(red: 1, green: 2, blue: 3) },
            { $0.backgroundColor = Color(red: 1, green: 2, blue: 3) }, { $0.fontWeight = .bold }, { $0.fontSize = 12 },
            { $0.alignment = .center }, { $0.lineBreakMode = .clip }, { $0.numberOfLines = 3 },
        ]
        for change in changes {
            let stamp = label.styleStamp
            change(label)
            #expect(label.styleStamp != stamp && seen.insert(label.styleStamp).inserted)
            let changed = label.styleStamp
            change(label)  // the same value again
            label.text = "not a style"
            label.frame = Rect(x: 1, y: 0, width: 5, height: 1)
            #expect(label.styleStamp == changed)
        }
        // A number of lines kept within its limit: one past it, set twice, changes it once.
        label.numberOfLines = Int.max
        let clamped = label.styleStamp
        label.numberOfLines = Int.max - 1
        #expect(label.styleStamp == clamped)
        label.numberOfLines = -1
        #expect(label.numberOfLines == 0 && label.styleStamp != clamped)
    }
}
