#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import HealthBrokerClient

/// The raw app-socket connections the load loop drives: connect, Hello, then non-blocking.
enum LoadSocket {
    /// Connects a Unix stream socket to `path` (blocking); returns the descriptor.
    static func connect(path: String) throws(LoadFailure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoadFailure("socket() failed: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw LoadFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw LoadFailure("cannot connect to \(path): \(String(cString: strerror(code))) (is healthbrokerd running?)")
        }
        return fd
    }

    /// Opens the session on `fd` with Hello (call id 1), waiting up to `timeoutMillis`; returns the
    /// broker's answer. The socket stays blocking.
    static func hello(fd: Int32, appID: String, token: String, timeoutMillis: Int32 = 10_000) throws(LoadFailure) -> HelloResponse {
        var frame: [UInt8] = []
        let request = HelloRequest(appID: appID, appToken: token, protocolVersion: BrokerVersion.protocolVersion)
        Proto.ClientFrame.appendFrame(call: .with { $0.callID = 1; $0.request = .hello(request.proto) }, to: &frame)
        try writeAll(fd: fd, frame)
        var decoder = FrameDecoder(maxFrameBytes: 16 << 20)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var pollSet = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pollSet, 1, timeoutMillis)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { throw LoadFailure("no answer to Hello within \(timeoutMillis) ms") }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw LoadFailure("the broker closed the connection during Hello") }
            buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            let payload: ArraySlice<UInt8>?
            do {
                payload = try decoder.nextFrame()
            } catch {
                throw LoadFailure("bad frame in answer to Hello: \(error)")
            }
            guard let payload else { continue }
            guard let reply = Proto.ServerFrame.decode(payload) else { throw LoadFailure("undecodable answer to Hello") }
            if let error = reply.status?.error { throw LoadFailure("Hello as \(appID) failed: \(error)") }
            guard case .hello(let answer)? = reply.response else { throw LoadFailure("unexpected answer to Hello") }
            return HelloResponse(proto: answer)
        }
    }

    /// Writes all of `bytes` to a blocking socket.
    static func writeAll(fd: Int32, _ bytes: [UInt8]) throws(LoadFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw LoadFailure("write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Makes `fd` non-blocking.
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }
}
