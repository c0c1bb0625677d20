#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a Unix socket, from `SO_PEERCRED`.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Creates credentials.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads the credentials of the peer connected to `fd`; nil when the kernel will not say.
    static func read(fd: Int32) -> PeerCredentials? {
        // Linux `struct ucred` (pid_t, uid_t, gid_t); Glibc only declares it under _GNU_SOURCE.
        var credentials = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// `pid=… uid=… gid=…`.
    public var description: String { "pid=\(pid) uid=\(uid) gid=\(gid)" }
}
