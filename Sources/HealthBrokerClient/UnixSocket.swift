#if canImport(Glibc)
import Glibc
#endif
import BrokerModel

/// Unix-domain stream socket calls, with errno turned into `BrokerError`s.
enum UnixSocket {
    /// Connects a new close-on-exec socket to `path`; returns its descriptor.
    ///
    /// No listener (ENOENT, ECONNREFUSED) is UNAVAILABLE naming the path; EACCES is PERMISSION_DENIED.
    static func connect(path: String) throws(BrokerError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !pathBytes.isEmpty, pathBytes.count < capacity, !pathBytes.contains(0) else {
            throw .invalidArgument("socket path \"\(path)\" is empty, contains NUL or is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw socketError("cannot create a socket for \(path)", errno) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
            }
            if result == 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            _ = Glibc.close(fd)
            switch code {
            case ENOENT, ECONNREFUSED:
                throw BrokerError(code: .unavailable, message: "no broker is listening at \(path) (\(errorName(code)))")
            case EACCES, EPERM:
                throw BrokerError(code: .permissionDenied, message: "not allowed to connect to \(path) (\(errorName(code)))")
            default:
                throw socketError("cannot connect to \(path)", code)
            }
        }
    }

    /// A close-on-exec, non-blocking pipe, for waking a thread blocked in `poll(2)`.
    static func makeWakePipe() throws(BrokerError) -> (read: Int32, write: Int32) {
        var fds: (Int32, Int32) = (-1, -1)
        let result = withUnsafeMutableBytes(of: &fds) { pipe($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
        guard result == 0 else { throw socketError("cannot create the client loop's wake-up pipe", errno) }
        for fd in [fds.0, fds.1] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds.0, fds.1)
    }

    /// One non-blocking `send(2)` of `bytes` (retried on EINTR): the bytes taken, 0 when the socket
    /// is full (or `bytes` is empty), or the negated errno. Never raises SIGPIPE.
    static func sendSome(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        while true {
            let sent = send(fd, base, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent >= 0 { return sent }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            return -Int(code)
        }
    }

    /// Waits up to `nanoseconds` (0: just looks) for `one`'s events, in `poll(2)` with the timeout
    /// rounded up to whole milliseconds (a hold waits up to 10 ms, `HoldBudget.waitBoundNanos`;
    /// a finer timeout only made wake-ups slower here). Returns what `poll` returns (-1 with errno).
    static func pollOne(_ one: inout pollfd, nanoseconds: Int64) -> Int32 {
        let milliseconds = nanoseconds <= 0 ? 0 : Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
        return poll(&one, 1, milliseconds)
    }

    /// `strerror` text for `code`.
    static func errorName(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// UNAVAILABLE for an unexpected errno.
    static func socketError(_ what: String, _ code: Int32) -> BrokerError {
        BrokerError(code: .unavailable, message: "\(what): \(errorName(code))")
    }
}
