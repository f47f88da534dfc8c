// `cellkit list`'s usual argument lists are read without ArgumentParser (ListArguments):
// whenever that path reads a list, ArgumentParser must read the same settings from it.

import ArgumentParser
import CellKitTestSupport
import Testing

@testable import CellKitCommand

@Suite("list's arguments read without ArgumentParser, as ArgumentParser reads them")
struct ListArgumentsTests {
    /// ArgumentParser's reading of `arguments`: list's settings, or nil.
    func parsed(_ arguments: [String]) -> ListArguments? {
        guard let command = try? CellKitCommand.parseAsRoot(arguments) as? ListCommand else { return nil }
        let d = command.discovery
        return ListArguments(
            pluginPaths: d.pluginPaths, allowUnsafePermissions: d.allowUnsafePermissions, noCache: d.noCache,
            verbose: d.verbose, json: command.json)
    }

    @Test("the lists people type take the fast path, with ArgumentParser's settings")
    func usual() {
        let lists: [[String]] = [
            ["list"], ["list", "--json"], ["list", "--plugin-path", "a", "--plugin-path=b", "-v"],
            ["list", "--no-cache", "--allow-unsafe-permissions", "--verbose", "--json"],
        ]
        for list in lists {
            let fast = ListArguments.read(list)
            #expect(fast != nil, "\(list)")
            #expect(fast == parsed(list), "\(list)")
        }
    }

    @Test("what the fast path leaves to ArgumentParser: help, errors, repeats, values like options")
    func leftToArgumentParser() {
        let lists: [[String]] = [
            ["list", "--help"], ["list", "-h"], ["list", "x"], ["list", "--json", "--json"],
            ["list", "-v", "--verbose"],
            ["list", "--plugin-path"], ["list", "--plugin-path", "-v"], ["list", "--plugin-path="],
            ["list", "--json=true"], ["list", "--"], ["render", "t.yaml"], ["inspect", "a.so"],
        ]
        for list in lists { #expect(ListArguments.read(list) == nil, "\(list)") }
    }

    static let pool = [
        "--json", "--json=1", "--plugin-path", "p", "--plugin-path=q", "--plugin-path=", "-", "--", "x", "",
        "--no-cache", "--allow-unsafe-permissions", "-v", "--verbose", "-vv", "--help", "-h", "--version", "list",
        "--unknown", "=", "-x",
    ]

    @Test("10,000 random lists: whenever the fast path reads one, ArgumentParser reads the same settings")
    func random() {
        let result = compareFastReader(
            command: "list", pool: Self.pool, longest: 5, seed: 0x1157, fast: ListArguments.read, reference: parsed)
        #expect(result.disagreements.isEmpty, "\(result.disagreements.prefix(5))")
        #expect(result.read > 500, "the generator draws lists the fast path reads: \(result.read)")
    }
}
