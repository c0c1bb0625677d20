import CLibUV

/// Owns one `uv_signal_t`: runs a callback on the loop thread when the process gets a signal.
public final class SignalWatcher {
    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_signal_t>
    private let action: (Int32) -> Void
    private var isClosed = false

    /// Starts watching `signal` on `loop` (loop thread only).
    ///
    /// When watching fails, the handle is closed again before the error is thrown: its memory (and
    /// this watcher, which the handle holds) is freed by the close callback on the next loop turn.
    public init(loop: EventLoop, signal: Int32, action: @escaping (Int32) -> Void) throws(UVError) {
        loop.assertInLoop()
        self.loop = loop
        self.action = action
        handle = uvAllocate(uv_signal_t.self)
        let result = uv_signal_init(loop.rawLoop, handle)
        if result < 0 {
            handle.deallocate()
            throw UVError(code: result, operation: "uv_signal_init")
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let startResult = uv_signal_start(handle, { handle, signal in
            uvOwner(handle!.pointee.data, as: SignalWatcher.self).action(signal)
        }, signal)
        if startResult < 0 {
            // The handle is initialized, so it is in the loop's handle list: it must be closed, not
            // just freed, and the close callback drops the reference the handle holds.
            close()
            throw UVError(code: startResult, operation: "uv_signal_start")
        }
        // A signal watcher alone does not keep the loop running.
        uv_unref(uvCast(handle, to: uv_handle_t.self))
    }

    /// Stops watching and frees the handle in its close callback.
    public func close() {
        loop.assertInLoop()
        guard !isClosed else { return }
        isClosed = true
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<SignalWatcher>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.release()
        }
    }
}
