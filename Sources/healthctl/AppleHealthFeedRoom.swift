import Foundation

/// How many chunks the parsing thread may be ahead of the importer: a counting gate that, unlike a
/// `DispatchSemaphore`, may be let go of at any count. libdispatch traps (SIGILL) when a semaphore
/// is released below its initial value, which is what an import that stops early leaves behind (a
/// batch refused in the export's last chunks, with the parser already done).
final class AppleHealthFeedRoom: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: Int
    private var closed = false

    /// A gate letting `capacity` chunks through before the first `give()`.
    init(capacity: Int) {
        free = capacity
    }

    /// Waits (the parsing thread only) until a chunk may be handed out; false once closed: nobody
    /// takes chunks any more.
    func take() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while free == 0 && !closed { condition.wait() }
        guard !closed else { return false }
        free -= 1
        return true
    }

    /// A chunk was taken: one more may follow.
    func give() {
        condition.lock()
        free += 1
        condition.signal()
        condition.unlock()
    }

    /// Nobody takes chunks any more: a waiting or later `take()` returns false at once.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
