// `cellkit render`'s usual argument lists, read without ArgumentParser. The first parse in a
// process builds ArgumentParser's model of the commands by reflection: type metadata and
// protocol conformance lookups, a large part of a small table's whole render (BENCHMARKS.md,
// "Measurements behind the code": RenderArguments). A list made only of the table and known
// options with valid values is read here; anything else (help, a misspelling, a repeated option,
// `--`, a value that is not valid, a value that starts with "-") goes to ArgumentParser, which
// prints what it always prints. RenderArgumentsTests holds the two to the same settings on random
// argument lists.

import ArgumentParser
import CellKit

/// Reads `render TABLE [options]` when every argument is a plain, valid case.
enum RenderArguments {
    /// The settings `arguments` (after the program's name) give, or nil when ArgumentParser must
    /// read them.
    static func settings(_ arguments: [String]) -> RenderCommandOptions? {
        guard arguments.first == "render" else { return nil }
        var reader = Reader(arguments: arguments)
        guard let settings = reader.read(), (try? settings.validate()) != nil else { return nil }
        return settings
    }

    private struct Reader {
        let arguments: [String]
        var next = 1
        var seen: Set<String> = []

        /// One option's value: after `=` (not empty: ArgumentParser refuses `--output=`), else the
        /// next argument unless it looks like an option.
        mutating func value(inline: String?) -> String? {
            if let inline { return inline.isEmpty ? nil : inline }
            guard next < arguments.count, !arguments[next].hasPrefix("-") else { return nil }
            next += 1
            return arguments[next - 1]
        }

        mutating func read() -> RenderCommandOptions? {
            var settings = RenderCommandOptions(table: ""), table: String?
            while next < arguments.count {
                let argument = arguments[next]
                next += 1
                guard argument.hasPrefix("-") else {
                    guard table == nil else { return nil }
                    table = argument
                    continue
                }
                let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]), inline = parts.count == 2 ? String(parts[1]) : nil
                // Each option once (ArgumentParser's handling of repeats is its own), --plugin-path aside.
                guard name == "--plugin-path" || name == "--allow-read" || seen.insert(name).inserted else {
                    return nil
                }
                guard read(name, inline: inline, into: &settings) else { return nil }
            }
            guard let table else { return nil }
            settings.table = table
            return settings
        }

        /// Applies option `name`; false if it is not one read here or its value is not valid.
        mutating func read(_ name: String, inline: String?, into s: inout RenderCommandOptions) -> Bool {
            switch name {
            case "--ascii": s.ascii = true
            case "--strict": s.strict = true
            case "--no-isolation": s.noIsolation = true
            case "--allow-unsafe-permissions": s.allowUnsafePermissions = true
            case "--no-cache": s.noCache = true
            default: return readValue(name, inline: inline, into: &s)
            }
            return inline == nil  // a flag takes no value
        }

        /// Applies option `name` that takes a value, converted as ArgumentParser converts it.
        mutating func readValue(_ name: String, inline: String?, into s: inout RenderCommandOptions) -> Bool {
            guard let text = value(inline: inline) else { return false }
            switch name {
            case "--plugin-path": s.pluginPaths.append(text)
            case "--allow-read": s.allowRead.append(text)
            case "--worker-memory":
                guard let mebibytes = Int(argument: text) else { return false }
                s.workerMemory = mebibytes
            case "--format":
                guard let format = RenderCommand.Format(argument: text) else { return false }
                s.format = format
            case "--color":
                guard let color = RenderCommand.ColorMode(argument: text) else { return false }
                s.color = color
            case "--color-depth":
                guard let depth = ColorDepth(argument: text) else { return false }
                s.colorDepth = depth
            case "--theme":
                guard let theme = ThemeMode(argument: text) else { return false }
                s.theme = theme
            case "--width":
                guard let width = Int(argument: text) else { return false }
                s.width = width
            case "--hook-timeout":
                guard let seconds = Double(argument: text) else { return false }
                s.hookTimeout = seconds
            case "--sandbox":
                guard let mode = SandboxMode(argument: text) else { return false }
                s.sandbox = mode
            case "--select": s.select = text
            case "--rows": s.rows = text
            case "--output": s.output = text
            case "--root": s.root = text
            default: return false
            }
            return true
        }
    }
}
