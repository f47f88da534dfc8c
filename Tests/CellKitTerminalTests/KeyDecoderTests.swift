// The browse view's key decoding: the terminal's own key strings, the ANSI forms, SGR mouse
// wheel reports, a lone Escape, a sequence split across reads, UTF-8 characters.

import CellKitTerminal
import Testing

@Suite("KeyDecoder")
struct KeyDecoderTests {
    let decoder = KeyDecoder(capabilities: ["kcuu1": Array("\u{1B}OA".utf8), "knp": Array("\u{1B}[6~".utf8)])

    func keys(_ text: String, final: Bool = true) -> (keys: [Key], pending: Int) {
        decoder.decode(Array(text.utf8), final: final)
    }

    @Test("arrows in both cursor-key modes, pages, Home and End in their common forms")
    func named() {
        #expect(keys("\u{1B}OA\u{1B}[A\u{1B}[B\u{1B}OB").keys == [.up, .up, .down, .down])
        #expect(
            keys("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~").keys
                == [.pageUp, .pageDown, .home, .end, .home, .end])
    }

    @Test("the mouse wheel as SGR reports; other buttons ignored")
    func wheel() {
        #expect(keys("\u{1B}[<64;10;5M\u{1B}[<65;10;5M\u{1B}[<0;3;4M\u{1B}[<0;3;4m").keys == [.wheelUp, .wheelDown])
    }

    @Test("a lone Escape; a sequence cut by a read waits; unknown sequences are skipped whole")
    func escape() {
        #expect(keys("\u{1B}").keys == [.escape])
        #expect(keys("\u{1B}", final: false) == ([], 1))
        #expect(keys("j\u{1B}[", final: false) == ([.character("j")], 2))
        #expect(keys("\u{1B}[15~q").keys == [.unknown, .character("q")])
        #expect(keys("\u{1B}x").keys == [.escape, .character("x")])
    }

    @Test("Enter, Backspace, control keys and UTF-8 characters")
    func plain() {
        #expect(keys("\r\n\u{7F}\u{08}").keys == [.enter, .enter, .backspace, .backspace])
        #expect(keys("é→\u{1A}").keys == [.character("é"), .character("→"), .character("\u{1A}")])
    }
}
