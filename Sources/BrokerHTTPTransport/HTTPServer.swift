public import BrokerTransport
public import BrokerModel
import CH2O
import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on the event loop, built on libh2o (Debian's libuv build): owns the
/// listening `uv_tcp_t`, h2o's configuration and context, and hands each request to `onRequest`.
///
/// h2o parses HTTP; this type only listens, accepts and dispatches. `close()` stops listening; once
/// the last open connection has closed too, h2o's context is disposed (which closes its timers and
/// wake-up handle) and a sentinel handle closed just before them frees the context and this server
/// in its close callback: libuv runs the close callbacks of one turn last-closed first, so the
/// sentinel's runs after h2o's handles are done with the context's memory. Loop thread only
/// (`assertInLoop()`); `Sendable` only so that other threads can hand it to `EventLoop.execute`.
public final class HTTPServer: @unchecked Sendable {
    private let loop: EventLoop
    private let listener: UnsafeMutablePointer<uv_tcp_t>
    private let config: UnsafeMutablePointer<h2o_globalconf_t>
    private let context: UnsafeMutablePointer<h2o_context_t>
    private let acceptContext: UnsafeMutablePointer<h2o_accept_ctx_t>
    private let onRequest: (HTTPRequest) -> Void
    private var isClosed = false
    private var isDisposed = false
    private var openConnections = 0
    /// This server, retained from `init` until h2o's context is gone.
    private var retained: UnsafeMutableRawPointer?
    /// The address bound, e.g. 127.0.0.1.
    public let host: String
    /// The port bound (the one the OS chose when 0 was asked).
    public private(set) var port: UInt16 = 0

    /// Binds `host:port` (an IPv4 address; port 0 lets the OS choose) and starts serving; a request
    /// body over `maxRequestBytes` is refused by h2o (413) before any handler sees it.
    ///
    /// - Throws: UNAVAILABLE when the address cannot be bound (in use, not local), INVALID_ARGUMENT
    ///   for a malformed address.
    public init(
        loop: EventLoop, host: String, port: UInt16, maxRequestBytes: Int = 1 << 20, onRequest: @escaping (HTTPRequest) -> Void
    ) throws(BrokerError) {
        loop.assertInLoop()
        self.loop = loop
        self.host = host
        self.onRequest = onRequest
        var address = sockaddr_in()
        guard uv_ip4_addr(host, Int32(port), &address) == 0 else {
            throw BrokerError(code: .invalidArgument, message: "not an IPv4 address: \(host)")
        }
        config = uvAllocate(h2o_globalconf_t.self)
        context = uvAllocate(h2o_context_t.self)
        acceptContext = uvAllocate(h2o_accept_ctx_t.self)
        listener = uvAllocate(uv_tcp_t.self)
        h2o_config_init(config)
        // h2o's default is 1 GiB; a page's requests are small.
        config.pointee.max_request_entity_size = maxRequestBytes
        let pathConfig = ch2o_register_root(config)
        // The handler refers to the server unretained: the server lives as long as the context.
        _ = ch2o_create_handler(pathConfig, Unmanaged.passUnretained(self).toOpaque()) { handler, request in
            let server = Unmanaged<HTTPServer>.fromOpaque(ch2o_handler_owner(handler)!).takeUnretainedValue()
            return server.handle(request!)
        }
        h2o_context_init(context, loop.rawLoop, config)
        acceptContext.pointee.ctx = context
        acceptContext.pointee.hosts = config.pointee.hosts
        uv_tcp_init(loop.rawLoop, listener)
        // Retained until the sentinel's close callback (`dispose`); the listener refers to it too.
        retained = Unmanaged.passRetained(self).toOpaque()
        listener.pointee.data = retained
        do throws(UVError) {
            _ = try withUnsafePointer(to: &address) { pointer throws(UVError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress throws(UVError) in
                    try uvCheck(uv_tcp_bind(listener, socketAddress, 0), "bind \(host):\(port)")
                }
            }
            try uvCheck(uv_listen(uvCast(listener, to: uv_stream_t.self), 128) { server, status in
                uvOwner(server!.pointee.data, as: HTTPServer.self).accept(status: status)
            }, "listen \(host):\(port)")
            self.port = try boundPort()
        } catch {
            close()
            throw error.brokerError
        }
    }

    /// The port the listener is bound to.
    private func boundPort() throws(UVError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getsockname(listener, $0, &length) }
        }
        try uvCheck(result, "getsockname")
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Accepts one connection and gives it to h2o, which owns it from then on: h2o closes it and
    /// calls `HTTPConnectionHandle.closed`, which frees it.
    private func accept(status: Int32) {
        loop.assertInLoop()
        guard status >= 0, !isClosed else { return }
        guard let connection = HTTPConnectionHandle.open(on: loop, server: self) else { return }
        openConnections += 1
        guard uv_accept(uvCast(listener, to: uv_stream_t.self), uvCast(connection, to: uv_stream_t.self)) == 0 else {
            HTTPConnectionHandle.close(connection)
            return
        }
        guard let socket = h2o_uv_socket_create(uvCast(connection, to: uv_stream_t.self), HTTPConnectionHandle.closed) else {
            HTTPConnectionHandle.close(connection)
            return
        }
        h2o_accept(acceptContext, socket)
    }

    /// h2o's handler callback: wraps the request and passes it on. Returns 0 (handled).
    private func handle(_ request: UnsafeMutablePointer<h2o_req_t>) -> Int32 {
        loop.assertInLoop()
        onRequest(HTTPRequest(loop: loop, request: request))
        return 0
    }

    /// The number of accepted connections not yet closed.
    public var connectionCount: Int { openConnections }

    /// An accepted connection's handle was closed and freed (`HTTPConnectionHandle.closed`).
    func connectionClosed() {
        loop.assertInLoop()
        openConnections -= 1
        if isClosed && openConnections == 0 { dispose() }
    }

    /// Stops listening (the listener handle is freed in its close callback); h2o's context goes
    /// when the last open connection has closed.
    public func close() {
        loop.assertInLoop()
        guard !isClosed else { return }
        isClosed = true
        uv_close(uvCast(listener, to: uv_handle_t.self)) { handle in
            handle!.deallocate()
        }
        if openConnections == 0 { dispose() }
    }

    /// Disposes h2o's context; its memory, the configuration's and this server (retained since
    /// `init`) are freed in the sentinel's close callback.
    private func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let sentinel = uvAllocate(uv_idle_t.self)
        uv_idle_init(loop.rawLoop, sentinel)
        sentinel.pointee.data = retained
        // Closed first, so its callback runs after those of the handles h2o closes next.
        uv_close(uvCast(sentinel, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<HTTPServer>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.takeUnretainedValue().freeContext()
            owner.release()
        }
        h2o_context_dispose(context)
        // Not h2o_config_dispose: in libh2o 2.2 it also disposes the proxy's socket pool, which a
        // configuration made with h2o_config_init alone never set up, and crashes. What it would
        // free (the host, path and handler entries: a few hundred bytes per server) is left to the
        // process's end; no handle is among them.
    }

    private func freeContext() {
        context.deallocate()
        config.deallocate()
        acceptContext.deallocate()
    }
}
