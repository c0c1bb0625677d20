import BrokerTransport
import CLibUV

/// The `uv_tcp_t` of one accepted HTTP connection. h2o's socket owns it once created (its `data`
/// is h2o's) and closes it when the connection ends; `closed`, the close callback handed to h2o, is
/// where it is freed. The server is kept in the bytes after the handle (unretained: it outlives
/// its connections) so that it can count them.
enum HTTPConnectionHandle {
    private static let serverOffset = MemoryLayout<uv_tcp_t>.stride

    /// A fresh TCP handle on `loop` for `server`, or nil when libuv refuses it.
    static func open(on loop: EventLoop, server: HTTPServer) -> UnsafeMutablePointer<uv_tcp_t>? {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: serverOffset + MemoryLayout<UnsafeMutableRawPointer>.size, alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: serverOffset)
        raw.storeBytes(of: Unmanaged.passUnretained(server).toOpaque(), toByteOffset: serverOffset, as: UnsafeMutableRawPointer.self)
        let handle = raw.bindMemory(to: uv_tcp_t.self, capacity: 1)
        guard uv_tcp_init(loop.rawLoop, handle) == 0 else {
            raw.deallocate()
            return nil
        }
        return handle
    }

    /// Closes a handle h2o never took over.
    static func close(_ handle: UnsafeMutablePointer<uv_tcp_t>) {
        uv_close(uvCast(handle, to: uv_handle_t.self), closed)
    }

    /// The close callback: frees the handle and tells its server.
    static let closed: uv_close_cb = { handle in
        let raw = UnsafeMutableRawPointer(handle!)
        let server = Unmanaged<HTTPServer>.fromOpaque(raw.load(fromByteOffset: serverOffset, as: UnsafeMutableRawPointer.self))
        raw.deallocate()
        server.takeUnretainedValue().connectionClosed()
    }
}
