import CLibUV
import Foundation

/// Owns the loop's `uv_async_t`: the one way other threads hand work to the loop thread.
///
/// Work goes into a locked queue; `uv_async_send` wakes the loop (sends coalesce), and the loop
/// drains the whole queue in one callback. Thread-safe: `enqueue` may be called from any thread
/// until `close` has been called on the loop thread.
final class LoopWaker: @unchecked Sendable {
    private let handle: UnsafeMutablePointer<uv_async_t>
    private let lock = NSLock()
    private var queue: [@Sendable () -> Void] = []
    private var closed = false

    init(loop: UnsafeMutablePointer<uv_loop_t>) throws(UVError) {
        handle = uvAllocate(uv_async_t.self)
        let result = uv_async_init(loop, handle) { handle in
            uvOwner(handle!.pointee.data, as: LoopWaker.self).drain()
        }
        if result < 0 {
            handle.deallocate()
            throw UVError(code: result, operation: "uv_async_init")
        }
        // Retained by the handle until the close callback.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Queues `work` for the loop thread; returns false once the loop is closing.
    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        if closed {
            lock.unlock()
            return false
        }
        queue.append(work)
        let wasEmpty = queue.count == 1
        // Sending while still holding the lock keeps close() from freeing the handle mid-send.
        if wasEmpty { uv_async_send(handle) }
        lock.unlock()
        return true
    }

    private func drain() {
        lock.lock()
        let batch = queue
        queue.removeAll(keepingCapacity: true)
        lock.unlock()
        for work in batch { work() }
    }

    /// Runs what is queued, refuses further work and closes the handle (loop thread only).
    func close() {
        drain()
        lock.lock()
        closed = true
        lock.unlock()
        drain()
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<LoopWaker>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.release()
        }
    }
}
