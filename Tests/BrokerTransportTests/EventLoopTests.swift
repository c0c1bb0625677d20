@testable import BrokerTransport
import Foundation
import Synchronization
import Testing

/// The loop knows its thread, and closes cleanly (`uv_loop_close` returns 0) once shut down.
@Suite struct EventLoopTests {
    /// A Bool one thread sets and another reads after a semaphore.
    final class SharedFlag: Sendable {
        private let stored = Atomic<Bool>(false)
        var value: Bool { stored.load(ordering: .sequentiallyConsistent) }
        func set(_ value: Bool) { stored.store(value, ordering: .sequentiallyConsistent) }
    }

    @Test func aLoopClosedAndRunClosesCleanly() throws {
        let loop = try EventLoop()
        #expect(!loop.closedCleanly)
        loop.close()
        loop.run()
        #expect(loop.closedCleanly)
    }

    @Test func timersRunOnTheLoopAndLeaveNothingOpen() throws {
        let loop = try EventLoop()
        var fired = 0
        loop.schedule(afterMicros: 1_000) { fired += 1 }
        let cancelled = loop.schedule(afterMicros: 2_000) { fired += 10 }
        loop.cancelTimer(cancelled)
        loop.schedule(afterMicros: 5_000) { loop.close() }
        loop.run()
        #expect(fired == 1)
        #expect(loop.closedCleanly)
    }

    @Test func theCreatingThreadOwnsTheLoopUntilAnotherRunsIt() throws {
        let loop = try EventLoop()
        #expect(loop.isInLoop)
        let elsewhere = SharedFlag()
        elsewhere.set(true)
        let checked = DispatchSemaphore(value: 0)
        Thread {
            elsewhere.set(loop.isInLoop)
            checked.signal()
        }.start()
        checked.wait()
        #expect(!elsewhere.value)

        // Work queued before `run()` runs on the thread that runs the loop, which now owns it.
        let onLoop = SharedFlag()
        loop.execute {
            onLoop.set(loop.isInLoop)
            loop.close()
        }
        let finished = DispatchSemaphore(value: 0)
        Thread {
            loop.run()
            finished.signal()
        }.start()
        finished.wait()
        #expect(onLoop.value)
        #expect(!loop.isInLoop)
        #expect(loop.closedCleanly)
        // A closed loop takes no more work.
        #expect(!loop.execute {})
    }
}
