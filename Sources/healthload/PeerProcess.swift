#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a connected Unix socket, from `getsockopt(SO_PEERCRED)`.
enum PeerProcess {
    /// The peer's process id, or nil when the kernel will not say.
    static func pid(ofSocket fd: Int32) -> Int32? {
        // Linux `struct ucred` is (pid_t, uid_t, gid_t); Glibc declares it only under _GNU_SOURCE.
        var credentials = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else { return nil }
        return credentials.pid
    }
}
