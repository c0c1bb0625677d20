import BrokerTransport
import Foundation
import Testing

/// A signal watcher frees its handle when closed, and when it fails to start.
@Suite struct SignalWatcherTests {
    /// Captured by a watcher's action: alive exactly as long as the watcher.
    final class Sentinel {}

    @Test func aClosedWatcherLeavesTheLoopClosingCleanly() throws {
        let loop = try EventLoop()
        let watcher = try SignalWatcher(loop: loop, signal: SIGUSR2) { _ in }
        watcher.close()
        loop.close()
        loop.run()
        #expect(loop.closedCleanly)
    }

    @Test func aWatcherThatCannotStartIsClosedAndFreed() throws {
        let loop = try EventLoop()
        weak var weakSentinel: Sentinel?
        do {
            let sentinel = Sentinel()
            weakSentinel = sentinel
            // libuv refuses signal 0 in `uv_signal_start`, after `uv_signal_init` succeeded.
            #expect(throws: UVError.self) {
                _ = try SignalWatcher(loop: loop, signal: 0) { _ in _ = sentinel }
            }
        }
        loop.close()
        loop.run()
        // The handle was closed (the loop closes cleanly) and the watcher it held was released.
        #expect(loop.closedCleanly)
        #expect(weakSentinel == nil)
    }
}
