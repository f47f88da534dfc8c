// The worker's seccomp program, run call number by call number (CSandbox's
// `ck_sandbox_filter_verdict`): the calls allowed outright are found in groups by number
// (`emit_allowed`), and a wrong jump there would allow a call the list does not hold, or send
// one it holds to the listener.

import CSandbox
import Testing

#if arch(x86_64)  // the call numbers and the audit architecture are x86_64's
@Suite("sandbox: the seccomp program answers each call as its lists say")
struct SandboxFilterTests {
    static let nativeArch: UInt32 = 0xC000_003E  // AUDIT_ARCH_X86_64
    static let allow: UInt32 = 0x7FFF_0000, notify: UInt32 = 0x7FC0_0000, errno: UInt32 = 0x0005_0000

    /// The answer to call `number` with every argument `argument`: by default a value no test by
    /// argument accepts (an odd descriptor, no fcntl command, not this process, no address family).
    static func verdict(_ number: Int, watch: Int32, arch: UInt32 = nativeArch, argument: UInt64 = 0xDEAD_BEEF)
        -> UInt32
    {
        var args = [UInt64](repeating: argument, count: 6)
        return ck_sandbox_filter_verdict(number, arch, watch, &args)
    }

    @Test(
        "every number from 0 to 599: allowed exactly when the list allows it outright",
        arguments: [Int32(CK_SANDBOX_WATCH_OPENS), Int32(CK_SANDBOX_WATCH_OPENS | CK_SANDBOX_WATCH_OUTPUT)])
    func eachNumber(watch: Int32) {
        var allowed = 0
        for number in 0..<600 {
            let answer = Self.verdict(number, watch: watch)
            #expect(answer != 0xFFFF_FFFF, "call \(number): the program could not be run")
            if ck_sandbox_allows_outright(number, watch) != 0 {
                allowed += 1
                #expect(answer == Self.allow, "call \(number) is on the list but answered \(String(answer, radix: 16))")
            } else {
                // Calls tested by argument answer by their arguments: none accepts all of them
                // 0xDEADBEEF (no fcntl command, not this process, no address family) or all 1
                // (standard output, watched in check). The two refused outright answer an errno;
                // every other goes to the listener.
                let other = Self.verdict(number, watch: watch, argument: 1)
                #expect(
                    answer != Self.allow || other != Self.allow, "call \(number) is not on the list but was allowed")
                for a in [answer, other] where a != Self.allow {
                    #expect(
                        a == Self.notify || a & 0xFFFF_0000 == Self.errno,
                        "call \(number) answered \(String(a, radix: 16))")
                }
            }
        }
        #expect(allowed > 50, "only \(allowed) calls allowed outright: the list was not read")
    }

    @Test("a call of another architecture, or an x32 number, goes to the listener")
    func otherArchitectures() {
        let watch = Int32(CK_SANDBOX_WATCH_OPENS)
        #expect(Self.verdict(0, watch: watch) == Self.allow)  // read
        #expect(Self.verdict(0, watch: watch, arch: 0x4000_0003) == Self.notify)  // i386
        #expect(Self.verdict(0x4000_0000, watch: watch) == Self.notify)  // x32's read
    }

    @Test("opens go to the listener while they are watched; writes to standard output in check")
    func watchedCalls() {
        let opens = Int32(CK_SANDBOX_WATCH_OPENS)
        let check = Int32(CK_SANDBOX_WATCH_OPENS | CK_SANDBOX_WATCH_OUTPUT)
        #expect(Self.verdict(257, watch: opens) == Self.notify)  // openat
        #expect(Self.verdict(257, watch: 0) == Self.allow)
        var args: [UInt64] = [1, 0, 0, 0, 0, 0]  // write(1, ...)
        #expect(ck_sandbox_filter_verdict(1, Self.nativeArch, check, &args) == Self.notify)
        #expect(ck_sandbox_filter_verdict(1, Self.nativeArch, opens, &args) == Self.allow)
        args[0] = 2  // standard error: even descriptors pass in check too
        #expect(ck_sandbox_filter_verdict(1, Self.nativeArch, check, &args) == Self.allow)
    }
}
#endif
