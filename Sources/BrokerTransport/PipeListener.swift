public import BrokerModel
import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Owns a listening `uv_pipe_t` on a Unix socket; hands each accepted peer to `onAccept`.
///
/// The socket is either bound here from a path (and removed again on close) or adopted from a
/// listening descriptor someone else made, as systemd's socket activation passes them (and then
/// left alone on close: its file belongs to whoever bound it). Loop thread only (`assertInLoop()` in `init`, `accept` and `close`).
public final class PipeListener {
    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_pipe_t>
    private let onAccept: (PipeConnection) -> Void
    private let maxFrameBytes: Int
    private let outputLimits: OutputLimits
    private let frameTimeoutMicros: Int64
    private var nextConnectionID: UInt64
    private var isClosed = false
    /// Whether this listener bound `path` and so removes it on close (false for an adopted socket).
    private let ownsPath: Bool
    /// The bound path (for an adopted socket, the path it is bound to, or "" when it has none).
    public let path: String

    /// Binds `path` (after `SocketPath.prepareForBinding`), sets its file mode, and starts listening.
    public init(
        loop: EventLoop, path: String, mode: UInt32, maxFrameBytes: Int, outputLimits: OutputLimits,
        frameTimeoutMicros: Int64 = 0, firstConnectionID: UInt64 = 1, onAccept: @escaping (PipeConnection) -> Void
    ) throws(BrokerError) {
        loop.assertInLoop()
        self.loop = loop
        self.path = path
        self.onAccept = onAccept
        self.maxFrameBytes = maxFrameBytes
        self.outputLimits = outputLimits
        self.frameTimeoutMicros = frameTimeoutMicros
        self.nextConnectionID = firstConnectionID
        self.ownsPath = true
        try SocketPath.prepareForBinding(path)
        handle = try Self.newHandle(on: loop)
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        do throws(UVError) {
            // Bind under a restrictive umask, then widen to `mode`: the socket is never looser than asked.
            let previous = umask(0o177)
            let bindResult = uv_pipe_bind(handle, path)
            umask(previous)
            try uvCheck(bindResult, "bind \(path)")
            guard chmod(path, mode_t(mode)) == 0 else {
                throw UVError(code: -errno, operation: "chmod \(path)")
            }
            try listen("listen \(path)")
        } catch {
            close()
            throw error.brokerError
        }
    }

    /// Adopts `descriptor`, a Unix stream socket already bound and listening (socket activation),
    /// and serves it. Neither binds, chmods nor removes anything: the socket's file, mode and
    /// lifetime stay with whoever made it. The descriptor is closed when the listener closes.
    ///
    /// - Throws: FAILED_PRECONDITION when `descriptor` is not a listening Unix stream socket.
    public init(
        loop: EventLoop, adopting descriptor: Int32, maxFrameBytes: Int, outputLimits: OutputLimits,
        frameTimeoutMicros: Int64 = 0, firstConnectionID: UInt64 = 1, onAccept: @escaping (PipeConnection) -> Void
    ) throws(BrokerError) {
        loop.assertInLoop()
        // Checked first so that a unit passing the wrong kind of socket is named plainly, rather than
        // failing later as an odd libuv error (or, for a datagram socket, never accepting at all).
        try Self.checkListeningUnixStream(descriptor)
        self.loop = loop
        self.path = Self.boundPath(of: descriptor)
        self.onAccept = onAccept
        self.maxFrameBytes = maxFrameBytes
        self.outputLimits = outputLimits
        self.frameTimeoutMicros = frameTimeoutMicros
        self.nextConnectionID = firstConnectionID
        self.ownsPath = false
        handle = try Self.newHandle(on: loop)
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        do throws(UVError) {
            try uvCheck(uv_pipe_open(handle, descriptor), "adopt socket fd \(descriptor)")
            // listen(2) again on a listening socket only sets the backlog; libuv needs the call to
            // start watching for connections.
            try listen("listen on socket fd \(descriptor)")
        } catch {
            close()
            throw error.brokerError
        }
    }

    /// Throws unless `descriptor` is an open, listening `AF_UNIX` `SOCK_STREAM` socket.
    private static func checkListeningUnixStream(_ descriptor: Int32) throws(BrokerError) {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard let domain = option(SO_DOMAIN), let type = option(SO_TYPE), let listening = option(SO_ACCEPTCONN) else {
            throw BrokerError(code: .failedPrecondition, message: "fd \(descriptor) is not a socket: \(String(cString: strerror(errno)))")
        }
        guard domain == AF_UNIX, type == Int32(SOCK_STREAM.rawValue), listening == 1 else {
            throw BrokerError(code: .failedPrecondition, message: "fd \(descriptor) is not a listening Unix stream socket (ListenStream= with a path)")
        }
    }

    /// The path `descriptor` is bound to, or "" for an unnamed or abstract socket.
    private static func boundPath(of descriptor: Int32) -> String {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard named else { return "" }
        return withUnsafeBytes(of: address.sun_path) { raw in
            guard let first = raw.first, first != 0 else { return "" }
            return String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// A fresh `uv_pipe_t` on `loop`, freed here if libuv refuses it.
    private static func newHandle(on loop: EventLoop) throws(BrokerError) -> UnsafeMutablePointer<uv_pipe_t> {
        let handle = uvAllocate(uv_pipe_t.self)
        let result = uv_pipe_init(loop.rawLoop, handle, 0)
        if result < 0 {
            handle.deallocate()
            throw UVError(code: result, operation: "uv_pipe_init").brokerError
        }
        return handle
    }

    /// Starts accepting: libuv watches the socket and hands each connection to `accept`.
    private func listen(_ operation: String) throws(UVError) {
        try uvCheck(uv_listen(uvCast(handle, to: uv_stream_t.self), 511) { server, status in
            uvOwner(server!.pointee.data, as: PipeListener.self).accept(status: status)
        }, operation)
    }

    private func accept(status: Int32) {
        loop.assertInLoop()
        guard status >= 0, !isClosed else { return }
        let id = nextConnectionID
        nextConnectionID += 1
        guard let connection = PipeConnection(loop: loop, id: id, maxFrameBytes: maxFrameBytes, outputLimits: outputLimits, frameTimeoutMicros: frameTimeoutMicros) else { return }
        guard uv_accept(uvCast(handle, to: uv_stream_t.self), connection.stream) == 0 else {
            connection.close()
            return
        }
        connection.didAccept()
        onAccept(connection)
        connection.startReading()
    }

    /// Stops listening and removes the socket file if this listener bound it; the handle is freed
    /// in its close callback.
    public func close() {
        loop.assertInLoop()
        guard !isClosed else { return }
        isClosed = true
        if ownsPath { SocketPath.remove(path) }
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<PipeListener>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.release()
        }
    }
}
