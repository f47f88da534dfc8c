// Splitting a path into its folder and its last component, as text. Foundation's
// `NSString.deletingLastPathComponent` traps on a one-character path ("a", "."), which
// made `cellkit render a` die with SIGILL; these never trap.

/// A path's folder and last component, by its slashes alone (no file system access).
package enum PathText {
    /// The folder part of `path`: "/a" for "/a/b", "" for "b", "/" for "/b" and "/". Trailing
    /// slashes are ignored, as `NSString.deletingLastPathComponent` ignores them.
    package static func folder(of path: String) -> String {
        let bytes = Array(trimmed(path).utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The last component of `path`: "b" for "/a/b" and "/a/b/", "/" for "/", "" for "".
    package static func lastComponent(of path: String) -> String {
        let text = trimmed(path)
        if text == "/" { return "/" }
        let bytes = Array(text.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return text }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// `bytes` as text, each byte that is not part of valid UTF-8 written as `\xFF`.
    package static func escapingInvalidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var text = "", rest = Array(bytes)[...]
        while !rest.isEmpty {
            // The longest valid prefix (at most 4 bytes a scalar), else one byte escaped.
            var taken = 0
            for length in (1...min(4, rest.count)).reversed() {
                if let scalar = String(validating: rest.prefix(length), as: UTF8.self), scalar.unicodeScalars.count == 1
                {
                    text += scalar
                    taken = length
                    break
                }
            }
            if taken == 0 {
                text += "\\x" + String(rest.first!, radix: 16, uppercase: true)
                taken = 1
            }
            rest = rest.dropFirst(taken)
        }
        return text
    }

    /// `path` without trailing slashes ("/" stays "/").
    private static func trimmed(_ path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
