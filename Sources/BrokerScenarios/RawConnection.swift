#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import HealthBrokerClient

/// A bare blocking connection to a broker socket that sends frames and reads replies itself, with
/// no reader thread: thousands of them fit in one process (the idle-connection scenario).
struct RawConnection {
    /// How long a blocking read or write may wait before the connection counts as failed.
    static let ioTimeoutSeconds = 20

    /// The socket descriptor.
    let fd: Int32
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)

    /// Connects to `path` (a close-on-exec stream socket with send and receive timeouts).
    init(path: String) throws(ScenarioFailure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ScenarioFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ScenarioFailure("socket(): \(String(cString: strerror(errno)))") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            _ = Glibc.close(fd)
            throw ScenarioFailure("connect(\(path)): \(message)")
        }
        var timeout = timeval(tv_sec: Self.ioTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
    }

    /// The process id at the other end (the broker), from `SO_PEERCRED`.
    var peerPID: Int32? {
        // Linux `struct ucred` is (pid_t, uid_t, gid_t).
        var credentials = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else { return nil }
        return credentials.pid
    }

    /// Sends one call; a stream may send `initialCredit` items before it needs more (0: the default window).
    func send(_ request: Proto.Call.Request, callID: UInt64, initialCredit: UInt32 = 0) throws(ScenarioFailure) {
        var buffer: [UInt8] = []
        let call = Proto.Call.with {
            $0.callID = callID
            $0.initialCredit = initialCredit
            $0.request = request
        }
        Proto.ClientFrame.appendFrame(call: call, to: &buffer)
        let failure: Int32? = buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent > 0 { offset += sent; continue }
                if sent < 0 && errno == EINTR { continue }
                return sent < 0 ? errno : EPIPE
            }
            return nil
        }
        if let failure { throw ScenarioFailure("send: \(String(cString: strerror(failure)))") }
    }

    /// Reads until one whole server frame has arrived and returns it decoded.
    mutating func receive() throws(ScenarioFailure) -> Proto.ServerFrame {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            do throws(BrokerError) {
                if let payload = try decoder.nextFrame() {
                    guard let frame = Proto.ServerFrame.decode(payload) else { throw WireCodec.undecodable("ServerFrame") }
                    return frame
                }
            } catch {
                throw ScenarioFailure("bad frame from the broker: \(error.message)")
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else if count == 0 {
                throw ScenarioFailure("the broker closed the connection")
            } else if errno != EINTR {
                throw ScenarioFailure("recv: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Sends `request` and waits for its one reply; a status other than OK is a failure.
    mutating func call(_ request: Proto.Call.Request, callID: UInt64) throws(ScenarioFailure) -> Proto.ServerFrame.Response? {
        try send(request, callID: callID)
        let frame = try receive()
        guard frame.callID == callID else { throw ScenarioFailure("reply for call \(frame.callID), expected \(callID)") }
        if let error = frame.status?.error { throw ScenarioFailure("\(request.method.name): \(error.message) (\(error.code))") }
        return frame.response
    }

    /// Closes the socket.
    func close() {
        _ = Glibc.close(fd)
    }
}

/// Finds the broker's process id: given, or the peer of a connection to its app socket.
enum BrokerProcess {
    /// `given` if set, otherwise the SO_PEERCRED pid of a fresh connection to `socketPath`.
    static func pid(given: Int32?, socketPath: String) throws(ScenarioFailure) -> Int32 {
        if let given { return given }
        let probe = try RawConnection(path: socketPath)
        defer { probe.close() }
        guard let pid = probe.peerPID else { throw ScenarioFailure("cannot tell the broker's pid (SO_PEERCRED); pass --broker-pid") }
        return pid
    }
}

/// A scenario that could not run; the message says why.
struct ScenarioFailure: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// A failure saying `description`.
    init(_ description: String) {
        self.description = description
    }
}
