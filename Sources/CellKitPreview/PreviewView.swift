// The preview on a terminal: the gallery's lines in a scrolling view (PreviewPager) on the
// alternate screen, browse's keys, redrawn on a resize. Drawing the gallery is one step the view
// is given (`draw`), so a reload can call it again.

import CellKitBrowse
import CellKitTerminal
import Foundation

/// The full-screen view of `cellkit preview`.
package enum PreviewView {
    /// Draws the gallery with `draw`, then shows it until q or Ctrl-C; the terminal is restored on
    /// any exit. Returns the exit status: 3 when a configuration faulted or failed, else 0. Throws
    /// when there is no terminal to draw on.
    package static func show(title: String, draw: () -> PreviewGallery) throws -> Int32 {
        let screen = try TerminalScreen()
        FileHandle.standardError.write(Data("drawing every configuration…\n".utf8))
        let gallery = draw()
        var pager = PreviewPager(
            lines: PreviewReport.lines(gallery, format: .ansi), title: title, columns: screen.size.columns,
            rows: screen.size.lines)
        // What a worker writes to standard error would scribble over the view: /dev/null meanwhile.
        let savedError = dup(2)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 { dup2(null, 2) }
        defer {
            if savedError >= 0 { dup2(savedError, 2) }
            for fd in [savedError, null] where fd >= 0 { close(fd) }
        }
        try screen.start()
        defer { screen.stop() }
        try loop(&pager, on: screen)
        return gallery.faulted ? 3 : 0
    }

    /// Answers keys and resizes until q.
    static func loop(_ pager: inout PreviewPager, on screen: TerminalScreen) throws {
        var shown: [ScreenLine] = []
        while true {
            let frame = pager.frame
            if frame.count != shown.count { screen.clear() }
            for (i, line) in frame.enumerated() where i >= shown.count || shown[i] != line || frame.count != shown.count
            {
                screen.write(line, at: i)
            }
            screen.flush()
            shown = frame
            switch try screen.next(timeout: nil) {
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
    /// Whether a configuration's drawing faulted or failed.
    package var faulted: Bool {
        types.contains { type in type.samples.contains { $0.entries.contains { $0.problem != nil } } }
    }
}
