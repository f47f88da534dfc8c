// The command line's conventions: --version (and in --help), the format from --output's
// extension (an explicit --format wins, a mismatch warns), --color always without ansi warns.
// Each checked on the settings both parsers give (RenderArguments and ArgumentParser) and on
// the built cellkit.

import ArgumentParser
import CellKit
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitCommand

@Suite("CLI conventions: --version, the format from --output, warnings about options")
struct CLIConventionsTests {
    /// The settings both parsers give `arguments`; fails the test if they differ or either refuses.
    func settings(_ arguments: [String]) throws -> RenderCommandOptions {
        let fast = try #require(RenderArguments.settings(arguments), "the fast path reads \(arguments)")
        let parsed = try #require(try CellKitCommand.parseAsRoot(arguments) as? RenderCommand).settings
        #expect(fast == parsed, "\(arguments)")
        return fast
    }

    @Test("cellkit --version prints the version and the plugin ABI; --help shows them")
    func version() throws {
        #expect(CellKitVersion.described == "\(CellKitVersion.current) (plugin ABI 1.4)")
        let printed = try Fixtures.output(Fixtures.cellkit, ["--version"])
        let lines = printed.split(separator: "\n").map(String.init)
        #expect(lines.first == CellKitVersion.described, "\(printed)")
        // Then what of the sandbox this machine applies (SECURITY.md), found by trying: the same as
        // a child process finds making the namespaces a worker makes (--version makes them for
        // itself, with no child started).
        let found = Sandbox.probeInChild()
        #expect(Array(lines.dropFirst()) == [found.summary] + found.missing.map { "sandbox: " + $0 }, "\(printed)")
        let help = try Fixtures.output(Fixtures.cellkit, ["--help"])
        #expect(help.contains("cellkit \(CellKitVersion.described)."), "\(help)")
        #expect(help.contains("--version"), "\(help)")
    }

    @Test("cellkit --version keeps the namespace answer per boot and configuration, and tries again when they change")
    func versionRemembers() throws {
        let cache = FileManager.default.temporaryDirectory.path + "/cellkit-version-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let environment = ["XDG_CACHE_HOME": cache]
        let first = try Fixtures.output(Fixtures.cellkit, ["--version"], environment: environment)
        let found = Sandbox.probeInChild()
        #expect(first.split(separator: "\n").dropFirst().first.map(String.init) == found.summary, "\(first)")
        let file = cache + "/cellkit/sandbox-support"
        let kept = try String(contentsOfFile: file, encoding: .utf8)
        let key = try #require(kept.split(separator: "\t").first.map(String.init))
        #expect(kept == key + "\t" + (found.namespaces ? "1" : "0") + "\n")
        #expect(key.hasPrefix("\(getuid()),\(geteuid()) "), "\(key)")
        #expect(Array(key.utf8) == Sandbox.rememberKey(), "the key as this process (its parent) makes it")
        // The kept answer is what --version prints for that key: written as the opposite, it shows.
        try (key + "\t" + (found.namespaces ? "0" : "1") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let kept2 = try Fixtures.output(Fixtures.cellkit, ["--version"], environment: environment)
        #expect(kept2.contains(found.namespaces ? "no network namespace" : "sandbox: network namespace"), "\(kept2)")
        // Another key (another boot, user or setting): tried again, and the new answer kept.
        try ("0,0 another-boot\t" + (found.namespaces ? "0" : "1") + "\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        let again = try Fixtures.output(Fixtures.cellkit, ["--version"], environment: environment)
        #expect(again == first, "\(again)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == kept)
    }

    @Test("the sandbox line names each part applied or not", arguments: [true, false])
    func sandboxSummary(all: Bool) {
        let support = Sandbox.Support(namespaces: all, landlockABI: all ? 7 : 0, seccomp: all)
        #expect(
            support.summary
                == (all
                    ? "sandbox: network namespace, Landlock ABI 7, seccomp"
                    : "sandbox: no network namespace, no Landlock, no seccomp"))
        #expect(support.missing.count == (all ? 0 : 3))
    }

    @Test(
        "Without --format, --output's extension names the format",
        arguments: [
            ("t.html", RenderCommand.Format.html), ("T.HTM", .html), ("out/t.json", .json), ("t.txt", .text),
            ("t.out", .text), ("t", .text), ("rows.jsonl", .jsonl), ("t.ndjson", .jsonl),
        ])
    func formatFromExtension(output: String, format: RenderCommand.Format) throws {
        let settings = try settings(["render", "t.yaml", "--output", output])
        #expect(settings.format == nil)
        #expect(settings.resolvedFormat == format)
        #expect(settings.optionWarnings.isEmpty, "\(settings.optionWarnings)")
    }

    @Test("the plugins beside the built cellkit are the examples only: the benchmarks' own are not installed")
    func noBenchmarkPlugins() throws {
        let listed = try Fixtures.output(Fixtures.cellkit, ["list", "--plugin-path", Fixtures.buildDirectory])
        #expect(listed.contains("FoobarCells"), "\(listed)")
        #expect(!listed.contains("BenchmarkCells") && !listed.contains("BenchAlpha"), "\(listed)")
    }

    @Test("An explicit --format wins over the extension, and a mismatch warns")
    func explicitFormatWins() throws {
        let mismatch = try settings(["render", "t.yaml", "--format", "text", "--output", "t.html"])
        #expect(mismatch.resolvedFormat == .text)
        #expect(
            mismatch.optionWarnings == [
                "--output t.html: writing text (--format text), but the file's extension says html; "
                    + "leave out --format to write html, or rename the file"
            ])
        for agreeing in [["--format=html", "--output=t.html"], ["--format", "ansi", "--output", "t.txt"]] {
            let settings = try settings(["render", "t.yaml"] + agreeing)
            #expect(settings.optionWarnings.isEmpty, "\(agreeing): \(settings.optionWarnings)")
        }
        #expect(try settings(["render", "t.yaml", "--format", "json"]).resolvedFormat == .json)
        #expect(try settings(["render", "t.yaml"]).resolvedFormat == .text)
    }

    @Test("--color always warns unless the format is ansi")
    func colorAlways() throws {
        let text = try settings(["render", "t.yaml", "--color", "always"])
        #expect(
            text.optionWarnings == [
                "--color always: the text format has no colour, so it is ignored; colour needs --format ansi"
            ])
        let html = try settings(["render", "t.yaml", "--color=always", "--output", "t.html"])
        #expect(html.optionWarnings.count == 1 && html.optionWarnings[0].contains("the html format has no colour"))
        #expect(try settings(["render", "t.yaml", "--color", "always", "--format", "ansi"]).optionWarnings.isEmpty)
        #expect(try settings(["render", "t.yaml", "--color", "never"]).optionWarnings.isEmpty)
    }

    @Test("The built cellkit writes HTML into x.html without --format, and warns on standard error at a mismatch")
    func endToEnd() throws {
        let folder = try Fixtures.folder()
        let table = Fixtures.repositoryRoot + "/Manifests/Tables/seed-004-foobar.yaml"
        let html = folder + "/x.html"
        let inferred = try Fixtures.execute(Fixtures.cellkit, ["render", table, "--output", html])
        #expect(inferred.status == 0 && inferred.errors.isEmpty, "\(inferred)")
        #expect(try String(contentsOfFile: html, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))

        let forced = try Fixtures.execute(
            Fixtures.cellkit, ["render", table, "--format", "text", "--output", html, "--strict"])
        #expect(forced.status == 2, "--strict counts the warning: \(forced)")
        #expect(forced.errors.hasPrefix("warning: --output \(html): writing text (--format text)"), "\(forced.errors)")
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("Row: 3"), "the table is still written")
        #expect(!(try String(contentsOfFile: html, encoding: .utf8).contains("<html")), "as text")

        let colored = try Fixtures.execute(Fixtures.cellkit, ["render", table, "--color", "always", "--no-isolation"])
        #expect(colored.status == 0)
        #expect(colored.errors.contains("warning: --color always: the text format has no colour"), "\(colored.errors)")
    }
}
