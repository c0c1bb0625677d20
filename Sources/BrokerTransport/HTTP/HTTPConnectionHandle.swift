import CLibUV

/// The `uv_tcp_t` of one accepted HTTP connection. h2o's socket owns it once created and closes it
/// when the connection ends; `closed`, the close callback handed to h2o, is where it is freed.
enum HTTPConnectionHandle {
    /// A fresh TCP handle on `loop`, or nil when libuv refuses it.
    static func open(on loop: EventLoop) -> UnsafeMutablePointer<uv_tcp_t>? {
        let handle = uvAllocate(uv_tcp_t.self)
        guard uv_tcp_init(loop.rawLoop, handle) == 0 else {
            handle.deallocate()
            return nil
        }
        return handle
    }

    /// Closes a handle h2o never took over.
    static func close(_ handle: UnsafeMutablePointer<uv_tcp_t>) {
        uv_close(uvCast(handle, to: uv_handle_t.self), closed)
    }

    /// The close callback: frees the handle.
    static let closed: uv_close_cb = { handle in
        UnsafeMutableRawPointer(handle!).assumingMemoryBound(to: uv_tcp_t.self).deallocate()
    }
}
