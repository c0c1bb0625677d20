import CLibUV

/// Owns a `uv_prepare_t` and a `uv_check_t` that run one callback before and after each poll.
///
/// The event loop flushes replies gathered during a loop turn here, so that all replies of a turn
/// leave in one write per connection: the prepare hook catches what timers produced, the check hook
/// what reads and wake-ups produced.
final class LoopTurnHook {
    private let prepare: UnsafeMutablePointer<uv_prepare_t>
    private let check: UnsafeMutablePointer<uv_check_t>
    private let action: () -> Void

    init(loop: UnsafeMutablePointer<uv_loop_t>, action: @escaping () -> Void) throws(UVError) {
        self.action = action
        prepare = uvAllocate(uv_prepare_t.self)
        check = uvAllocate(uv_check_t.self)
        // On a failure, a handle not yet initialized is freed at once; one initialized is in the
        // loop's handle list, so it is closed and freed by its close callback instead.
        let prepareResult = uv_prepare_init(loop, prepare)
        if prepareResult < 0 {
            prepare.deallocate()
            check.deallocate()
            throw UVError(code: prepareResult, operation: "uv_prepare_init")
        }
        let checkResult = uv_check_init(loop, check)
        if checkResult < 0 {
            check.deallocate()
            Self.close(prepare)
            throw UVError(code: checkResult, operation: "uv_check_init")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        prepare.pointee.data = opaque
        check.pointee.data = opaque
        do throws(UVError) {
            try uvCheck(uv_prepare_start(prepare) { handle in
                uvOwner(handle!.pointee.data, as: LoopTurnHook.self).action()
            }, "uv_prepare_start")
            try uvCheck(uv_check_start(check) { handle in
                uvOwner(handle!.pointee.data, as: LoopTurnHook.self).action()
            }, "uv_check_start")
        } catch {
            close()
            throw error
        }
        // The hooks must not keep the loop alive on their own.
        uv_unref(uvCast(prepare, to: uv_handle_t.self))
        uv_unref(uvCast(check, to: uv_handle_t.self))
    }

    /// Closes both handles; their memory is freed in the close callbacks (loop thread only).
    func close() {
        Self.close(prepare)
        Self.close(check)
    }

    /// Closes one of the two handles; the close callback frees its memory (and calls nothing else,
    /// so it is safe after this object is gone).
    private static func close<Handle>(_ handle: UnsafeMutablePointer<Handle>) {
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in handle!.deallocate() }
    }
}
