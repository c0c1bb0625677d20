import BrokerModel
import BrokerSupport
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd how the service is doing (sd_notify(3)): a datagram of `KEY=value` lines to the
/// socket `$NOTIFY_SOCKET` names, a path, or an abstract name when it starts with '@'.
///
/// Plain socket calls, off libuv: each message is one `sendto` on a socket opened for it, which
/// costs nothing at the few moments it happens (ready, reloading, stopping).
struct ServiceNotifier: Sendable {
    /// The variable systemd sets for `Type=notify` services.
    static let variable = "NOTIFY_SOCKET"

    /// The socket address: the bytes of `sun_path` (a leading NUL for an abstract name).
    let address: [UInt8]
    /// `$NOTIFY_SOCKET` as given, for messages.
    let name: String

    /// A notifier for `socket` (`$NOTIFY_SOCKET`'s value), or nil when there is none to tell.
    ///
    /// - Throws: FAILED_PRECONDITION for a value that is neither an absolute path nor '@'-prefixed,
    ///   or too long for a Unix socket address.
    init?(socket: String?) throws(BrokerError) {
        guard let socket, !socket.isEmpty else { return nil }
        var bytes = Array(socket.utf8)
        switch bytes.first {
        case UInt8(ascii: "/"): break
        case UInt8(ascii: "@"): bytes[0] = 0
        default: throw BrokerError(code: .failedPrecondition, message: "\(Self.variable)=\(socket) is neither an absolute path nor an abstract name (@…)")
        }
        guard bytes.count <= MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 else {
            throw BrokerError(code: .failedPrecondition, message: "\(Self.variable)=\(socket) is too long for a Unix socket address")
        }
        address = bytes
        name = socket
    }

    /// The notifier for this process's `$NOTIFY_SOCKET`, which is then unset: the notifications
    /// are the daemon's, and a child sending its own would confuse systemd.
    static func takeFromProcess() throws(BrokerError) -> ServiceNotifier? {
        guard let value = getenv(variable) else { return nil }
        let socket = String(cString: value)
        unsetenv(variable)
        return try ServiceNotifier(socket: socket)
    }

    /// `READY=1` with the main pid and a status line: the broker serves.
    static func ready(pid: Int32, status: String) -> String {
        "READY=1\nMAINPID=\(pid)\nSTATUS=\(oneLine(status))"
    }

    /// `RELOADING=1` (with the monotonic time systemd's reload protocol asks for) and a status line.
    static func reloading(status: String) -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
        return "RELOADING=1\nMONOTONIC_USEC=\(micros)\nSTATUS=\(oneLine(status))"
    }

    /// `STOPPING=1` and a status line.
    static func stopping(status: String) -> String {
        "STOPPING=1\nSTATUS=\(oneLine(status))"
    }

    /// Sends `message` as one datagram.
    ///
    /// - Throws: UNAVAILABLE with the system's reason when the socket cannot be reached.
    func send(_ message: String) throws(BrokerError) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
        defer { close(fd) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
            for (index, byte) in address.enumerated() { raw[index] = byte }
        }
        // An abstract name is exactly its bytes (no terminating NUL counts); a path may end at its NUL.
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        let length = socklen_t(pathOffset + address.count + (address.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = bytes.withUnsafeBytes { payload in
            withUnsafePointer(to: &socketAddress) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, payload.baseAddress, payload.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        guard sent == bytes.count else { throw failure("send to \(name)") }
    }

    private func failure(_ operation: String) -> BrokerError {
        BrokerError(code: .unavailable, message: "\(Self.variable): \(operation): \(String(cString: strerror(errno)))")
    }

    /// A status text cannot span lines: each line of the message is a `KEY=value` of its own.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
