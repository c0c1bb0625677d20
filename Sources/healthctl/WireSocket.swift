#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import BrokerWire

/// A blocking Unix-socket connection that speaks the frame protocol with the generated `Proto`
/// messages as they are: `healthctl call` sends what the JSON says and prints what comes back,
/// without the client library's mapping to model values (which would drop or refuse what the
/// model cannot hold, which is what a caller by hand wants to see).
final class WireSocket {
    /// The socket descriptor.
    private let fd: Int32
    /// The socket path, for messages.
    let path: String
    /// Received bytes not yet taken as frames.
    private var buffered: [UInt8] = []

    /// Connects to `path`; a failure is UNAVAILABLE naming the path, as the client library's.
    init(path: String) throws(BrokerError) {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BrokerError(code: .unavailable, message: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            close(fd)
            throw BrokerError(code: .invalidArgument, message: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard connected else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw BrokerError(code: .unavailable, message: "cannot connect to \(path): \(reason)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one frame.
    func send(_ frame: Proto.ClientFrame) throws(BrokerError) {
        var bytes: [UInt8] = []
        frame.appendFrame(to: &bytes)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw BrokerError(code: .unavailable, message: "the broker closed \(path)") }
            sent += count
        }
    }

    /// Reads the next frame; the broker closing the connection first is UNAVAILABLE.
    func receive() throws(BrokerError) -> Proto.ServerFrame {
        let header = FrameDecoder.headerSize
        while true {
            if buffered.count >= header {
                let length = buffered[1...4].reduce(0) { $0 << 8 | Int($1) }
                if buffered.count >= header + length {
                    let frame = Proto.ServerFrame.decode(buffered[header..<header + length])
                    buffered.removeFirst(header + length)
                    guard let frame else { throw BrokerError(code: .internal, message: "the broker sent a frame that does not decode") }
                    return frame
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw BrokerError(code: .unavailable, message: "the broker closed \(path)") }
            buffered.append(contentsOf: chunk[..<count])
        }
    }
}
