// `cellkit --help` (and `-h`, `help`, no arguments) and `cellkit COMMAND --help` for the commands a
// user reaches for, printed from text kept in HelpScreens.swift when the screen is as wide as the
// text was wrapped for (80 columns: ArgumentParser's width when standard output is no terminal and
// COLUMNS is not set). ArgumentParser builds its model of the commands by reflection before it
// prints a line, which costs more than an empty Swift program's whole run (BENCHMARKS.md,
// "Measurements behind the code": HelpTexts). Any other width, command or spelling goes to
// ArgumentParser. HelpTextsTests holds every kept text to what ArgumentParser generates, so the
// two cannot drift.

import Glibc

/// The help screens kept as text, and when they are what ArgumentParser would print.
enum HelpTexts {
    /// The width the kept texts are wrapped to.
    static let columns = 80

    /// The commands whose help is kept; nil is `cellkit` itself.
    static let commands: [String?] = [nil, "render", "browse", "list", "inspect", "check", "preview", "new", "sdk"]

    /// The help `arguments` (after the program's name) ask for, when it is kept for `width`
    /// columns: `cellkit`, `--help`, `-h`, `help`, `COMMAND --help`, `COMMAND -h`, `help COMMAND`.
    static func requested(_ arguments: ArraySlice<String>, width: @autoclosure () -> Int = screenWidth()) -> String? {
        let command: String?
        switch arguments.count {
        case 0: command = nil
        case 1:
            guard let only = arguments.first, only == "help" || isHelpFlag(only) else { return nil }
            command = nil
        case 2:
            guard let first = arguments.first, let last = arguments.last else { return nil }
            if first == "help" {
                command = last
            } else if isHelpFlag(last) {
                command = first
            } else {
                return nil
            }
        default: return nil
        }
        guard let text = text(for: command), width() == columns else { return nil }
        return text
    }

    /// Whether `argument` asks for help as ArgumentParser's default names do.
    private static func isHelpFlag(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }

    /// The width ArgumentParser wraps help to: COLUMNS when it is a number, else the terminal's on
    /// standard output, else 80.
    static func screenWidth() -> Int {
        if let columns = getenv("COLUMNS"), let width = Int(String(cString: columns)) { return width }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
