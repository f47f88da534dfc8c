// Golden files: output locked by a readable file in the repository, compared byte for byte.
// `CELLKIT_RECORD_GOLDEN=1 swift test --filter ...` writes the files anew; review the diff.

import Foundation

public enum Golden {
    /// Why `output` differs from the golden file `path` (relative to the repository's root), or nil
    /// when it matches. A missing file, or any file when recording, is written from `output` and
    /// reported, so that a new golden file is seen and reviewed before it is trusted.
    public static func mismatch(_ output: String, file path: String) -> String? {
        let url = URL(fileURLWithPath: Render.root + "/" + path)
        let recording = ProcessInfo.processInfo.environment["CELLKIT_RECORD_GOLDEN"] == "1"
        guard !recording, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(output.utf8).write(to: url)
            return "\(path) was written anew: review it, then run the test again"
        }
        guard output != expected else { return nil }
        let got = output.components(separatedBy: "\n")
        let want = expected.components(separatedBy: "\n")
        let differing = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }
        let line = differing?.offset ?? min(got.count, want.count)
        func shown(_ lines: [String]) -> String { line < lines.count ? lines[line] : "(the end)" }
        return """
            \(path):\(line + 1): the output differs (CELLKIT_RECORD_GOLDEN=1 writes it anew)
              expected: \(shown(want))
              got:      \(shown(got))
            """
    }
}
