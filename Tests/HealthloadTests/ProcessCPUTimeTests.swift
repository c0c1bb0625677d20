import Foundation
@testable import healthload
import Testing

/// Reading a process's CPU time from /proc/PID/stat.
@Suite("Process CPU time")
struct ProcessCPUTimeTests {
    @Test func fieldsAreCountedFromTheLastParenthesisSoOddCommandNamesParse() throws {
        let line = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1234 0 5 0 731 288 0 0 20 0 3 0 12345 1000000 500 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n"
        let time = try #require(ProcessCPUTime.parse(statLine: line, ticksPerSecond: 100))
        #expect(time.userTicks == 731)
        #expect(time.systemTicks == 288)
        #expect(abs(time.seconds - 10.19) < 1e-9)
    }

    @Test func malformedLinesAreRefused() {
        #expect(ProcessCPUTime.parse(statLine: "", ticksPerSecond: 100) == nil)
        #expect(ProcessCPUTime.parse(statLine: "12 (x) S 1 2 3", ticksPerSecond: 100) == nil)
        #expect(ProcessCPUTime.parse(statLine: "12 (x) S 1 2 3 4 5 6 7 8 9 a b c d", ticksPerSecond: 100) == nil)
    }

    @Test func thisProcessCanBeRead() throws {
        let time = try #require(ProcessCPUTime.read(pid: getpid()))
        #expect(time.ticksPerSecond > 0)
        #expect(ProcessCPUTime.read(pid: 0) == nil)
    }
}
