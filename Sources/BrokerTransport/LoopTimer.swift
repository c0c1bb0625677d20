import CLibUV

/// Owns one `uv_timer_t`: fires a callback once after a delay in milliseconds (loop thread only).
final class LoopTimer {
    private let handle: UnsafeMutablePointer<uv_timer_t>
    private var action: (() -> Void)?

    init(loop: UnsafeMutablePointer<uv_loop_t>) throws(UVError) {
        handle = uvAllocate(uv_timer_t.self)
        let result = uv_timer_init(loop, handle)
        if result < 0 {
            handle.deallocate()
            throw UVError(code: result, operation: "uv_timer_init")
        }
        handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Arms the timer to run `action` once after `milliseconds`, replacing any earlier arming.
    func start(milliseconds: UInt64, action: @escaping () -> Void) {
        self.action = action
        uv_timer_start(handle, { handle in
            let timer = uvOwner(handle!.pointee.data, as: LoopTimer.self)
            let action = timer.action
            timer.action = nil
            action?()
        }, milliseconds, 0)
    }

    /// Disarms the timer.
    func stop() {
        action = nil
        uv_timer_stop(handle)
    }

    /// Closes the handle; its memory is freed in the close callback.
    func close() {
        action = nil
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in handle!.deallocate() }
    }
}
