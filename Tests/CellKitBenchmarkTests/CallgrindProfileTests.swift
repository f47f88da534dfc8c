// cellkit-bench's reading of callgrind profiles: the calls a row to the allocators and to
// swift_retain/swift_release (`cellkit-bench render same-work`) come from `References.calls`.

import Testing

@testable import CellKitBenchmark

@Suite("callgrind profiles: calls to named functions, compressed names resolved")
struct CallgrindProfileTests {
    /// A profile as callgrind writes it: `fn=`/`cfn=` names compressed to `(id)` after their first
    /// use, ids shared between the two, `calls=N` lines after the callee they count.
    static let profile = """
        # callgrind format
        events: Ir
        fl=(1) renderer.swift
        fn=(1) render
        3 100
        cfl=(2) malloc.c
        cfn=(2) malloc
        calls=7 0
        3 700
        cfn=(3) swift_retain
        calls=40 0
        3 200
        fn=(4) layout
        4 50
        cfn=(2)
        calls=5 0
        4 500
        cfn=(3)
        calls=2 0
        4 10
        fn=(2)
        0 900
        cfn=(5) calloc
        calls=1 0
        0 20
        cfn=(6) swift_release
        calls=30 0
        4 150
        """

    @Test("calls are summed per callee over every caller, through compressed names")
    func summed() {
        let calls = References.calls(inProfile: Self.profile, to: References.counted)
        #expect(calls == ["malloc": 12, "swift_retain": 42, "calloc": 1, "swift_release": 30])
        let counts = References.Counts(instructions: 0, calls: calls)
        #expect(counts.allocations == 13)
    }

    @Test("functions not asked for are not counted; a profile without calls counts none")
    func others() {
        #expect(References.calls(inProfile: Self.profile, to: ["layout"]).isEmpty)
        #expect(References.calls(inProfile: "events: Ir\nfn=(1) main\n0 5\n", to: References.counted).isEmpty)
    }
}
