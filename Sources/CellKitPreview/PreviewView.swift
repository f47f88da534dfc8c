// The preview on a terminal: the gallery's lines in a scrolling view (PreviewPager) on the
// alternate screen, browse's keys, redrawn on a resize. Drawing the gallery is one step the view
// is given (`draw`), so a reload can call it again.

import CellKitBrowse
import CellKitDocuments
import CellKitTerminal
import Foundation

/// The full-screen view of `cellkit preview`.
package enum PreviewView {
    /// Seconds between looks at the watched files (`--watch`), and between redraws of the lines
    /// while configurations are being drawn.
    static let watchInterval = 0.25, redrawInterval = 0.1

    /// Shows the gallery `start` draws, a configuration at a time as it is drawn, until q or
    /// Ctrl-C; the terminal is restored on any exit. With `watching`, whenever one of those files
    /// changes (the plugin rebuilt, its preview file edited) the drawings are forgotten and `start`
    /// draws the gallery again, in new workers, the view staying where it was. Returns the exit
    /// status: 3 when a configuration of the last gallery faulted or failed, else 0. Throws when
    /// there is no terminal to draw on.
    package static func show(
        title: String, renderer: PreviewRenderer, watching: [String]? = nil, start: () -> PreviewGalleryDrawing
    ) throws -> Int32 {
        let screen = try TerminalScreen()
        var drawing = start()
        var pager = PreviewPager(lines: [], title: title, columns: screen.size.columns, rows: screen.size.lines)
        let silenced = SilencedStandardError()  // what a worker writes there would scribble over the view
        defer { silenced.restore() }
        try screen.start()
        defer { screen.stop() }
        var watch = watching.map { FileWatch(paths: $0) }
        var reloaded: String?
        try loop(&pager, on: screen) { pager in
            if var files = watch {
                if files.changed() {  // a build mid-drawing starts it again too
                    renderer.forgetDrawings()
                    drawing = start()
                    reloaded = "reloaded at " + StatusClock.now()
                }
                watch = files
            }
            let began = Date()
            while !drawing.isComplete, Date().timeIntervalSince(began) < redrawInterval { drawing.step(renderer) }
            pager.replace(PreviewReport.lines(drawing.gallery, format: .ansi), growing: !drawing.isComplete)
            let (done, of) = drawing.progress
            let faulted = drawing.gallery.faultedCount
            pager.note = [
                reloaded, faulted == 0 ? nil : "⚠ \(faulted) faulted (/⚠ finds them)",
                drawing.isComplete ? nil : "drawing \(done) of \(of)",
            ].compactMap { $0 }.joined(separator: " · ")
            if pager.note?.isEmpty == true { pager.note = nil }
            return drawing.isComplete ? (watch == nil ? nil : watchInterval) : 0
        }
        return drawing.gallery.faulted ? 3 : 0
    }

    /// Answers keys and resizes until q; `work` runs before each wait for a key and says how long
    /// that wait may be (nil: until a key; 0: none, more work is waiting).
    static func loop(
        _ pager: inout PreviewPager, on screen: TerminalScreen, work: (inout PreviewPager) -> Double?
    ) throws {
        var shown: [ScreenLine] = []
        while true {
            let timeout = work(&pager)
            let frame = pager.frame
            if frame.count != shown.count { screen.clear() }
            for (i, line) in frame.enumerated() where i >= shown.count || shown[i] != line || frame.count != shown.count
            {
                screen.write(line, at: i)
            }
            screen.flush()
            shown = frame
            switch try screen.next(timeout: timeout) {
            case .timeout: break
            case .resized, .resumed:
                pager.resize(columns: screen.size.columns, rows: screen.size.lines)
                shown = []
            case .keys(let keys):
                for key in keys where pager.handle(key) == .quit { return }
            }
        }
    }
}

extension PreviewGallery {
    /// How many configurations' drawings faulted or failed.
    package var faultedCount: Int {
        types.reduce(0) { count, type in
            count + type.samples.reduce(0) { $0 + $1.entries.filter { $0.problem != nil }.count }
        }
    }

    /// Whether a configuration's drawing faulted or failed.
    package var faulted: Bool {
        types.contains { type in type.samples.contains { $0.entries.contains { $0.problem != nil } } }
    }
}
