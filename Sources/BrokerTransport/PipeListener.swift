public import BrokerModel
public import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Owns a listening `uv_pipe_t` bound to a Unix socket path; hands each accepted peer to `onAccept`.
///
/// Loop thread only (`assertInLoop()` in `init`, `accept` and `close`).
public final class PipeListener {
    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_pipe_t>
    private let onAccept: (PipeConnection) -> Void
    private let maxFrameBytes: Int
    private let outputLimits: OutputLimits
    private let frameTimeoutMicros: Int64
    private var nextConnectionID: UInt64
    private var isClosed = false
    /// The bound path.
    public let path: String

    /// Binds `path` (after `SocketPath.prepareForBinding`), sets its file mode, and starts listening.
    public init(
        loop: EventLoop, path: String, mode: mode_t, maxFrameBytes: Int, outputLimits: OutputLimits,
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
        try SocketPath.prepareForBinding(path)
        handle = uvAllocate(uv_pipe_t.self)
        let initResult = uv_pipe_init(loop.rawLoop, handle, 0)
        if initResult < 0 {
            handle.deallocate()
            throw UVError(code: initResult, operation: "uv_pipe_init").brokerError
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        do throws(UVError) {
            // Bind under a restrictive umask, then widen to `mode`: the socket is never looser than asked.
            let previous = umask(0o177)
            let bindResult = uv_pipe_bind(handle, path)
            umask(previous)
            try uvCheck(bindResult, "bind \(path)")
            guard chmod(path, mode) == 0 else {
                throw UVError(code: -errno, operation: "chmod \(path)")
            }
            try uvCheck(uv_listen(uvCast(handle, to: uv_stream_t.self), 511) { server, status in
                uvOwner(server!.pointee.data, as: PipeListener.self).accept(status: status)
            }, "listen \(path)")
        } catch {
            close()
            throw error.brokerError
        }
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

    /// Stops listening and removes the socket file; the handle is freed in its close callback.
    public func close() {
        loop.assertInLoop()
        guard !isClosed else { return }
        isClosed = true
        SocketPath.remove(path)
        uv_close(uvCast(handle, to: uv_handle_t.self)) { handle in
            let owner = Unmanaged<PipeListener>.fromOpaque(handle!.pointee.data!)
            handle!.deallocate()
            owner.release()
        }
    }
}
