public import BrokerModel
// SOCK_STREAM's header is not in Glibc's module map: whichever clang module includes it first owns
// it, and a fresh build of this file alone could not see it. uv.h includes it, as for PipeListener.
import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Checks and cleans a Unix socket path before a listener binds it.
public enum SocketPath {
    /// The longest path `sockaddr_un` holds, excluding the terminating NUL.
    public static let maxLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Makes `path` ready to bind: refuses when a live server answers there, removes a stale socket file.
    ///
    /// Also creates the parent directory (mode 0755 when it is new).
    public static func prepareForBinding(_ path: String) throws(BrokerError) {
        guard !path.isEmpty, path.utf8.count <= maxLength else {
            throw BrokerError.invalidArgument("socket path must be 1 to \(maxLength) bytes: \(path)")
        }
        let parent = parentDirectory(of: path)
        if !parent.isEmpty { try createDirectories(parent) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw BrokerError(code: .failedPrecondition, message: "\(path) exists and is not a socket")
        }
        if isServed(path) {
            throw BrokerError(code: .alreadyExists, message: "a live broker already serves \(path)")
        }
        unlink(path)
    }

    /// True when something accepts connections on the socket at `path`.
    public static func isServed(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(maxLength).enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    /// Removes the socket file if it is still a socket.
    public static func remove(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK { unlink(path) }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    private static func createDirectories(_ path: String) throws(BrokerError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o755) != 0, errno != EEXIST {
                throw BrokerError(code: .unavailable, message: "cannot create \(built): \(String(cString: strerror(errno)))")
            }
        }
    }
}
