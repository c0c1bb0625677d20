import BrokerModel
import BrokerSupport
#if canImport(Glibc)
import Glibc
#endif

/// The listening sockets systemd passed at start (socket activation), read from `LISTEN_PID`,
/// `LISTEN_FDS` and `LISTEN_FDNAMES` as sd_listen_fds(3) describes.
///
/// Descriptors start at 3. The names `app` and `admin` (the units' `FileDescriptorName=`) say which
/// is which; without names the first is the app socket and the second the admin socket. A socket
/// not passed is bound from its path as without systemd.
struct SocketActivation: Equatable {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstDescriptor: Int32 = 3
    /// The variables read, and unset by `takeFromProcess()`.
    static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// The passed app socket, if any.
    var appSocket: Int32?
    /// The passed admin socket, if any.
    var adminSocket: Int32?

    /// Whether no socket was passed.
    var isEmpty: Bool { appSocket == nil && adminSocket == nil }

    /// Nothing passed.
    init(appSocket: Int32? = nil, adminSocket: Int32? = nil) {
        self.appSocket = appSocket
        self.adminSocket = adminSocket
    }

    /// Reads the passed sockets from `environment` for the process `pid`.
    ///
    /// Variables meant for another process (`LISTEN_PID` missing or not `pid`: a parent's, left
    /// in the environment) pass nothing. Values that are for this process but cannot be followed
    /// are errors: serving on a guessed socket would be worse than not starting.
    ///
    /// - Throws: FAILED_PRECONDITION naming the variable and what is wrong with it.
    init(environment: [String: String], pid: Int32) throws(BrokerError) {
        self.init()
        guard let listenPID = environment["LISTEN_PID"], Int32(listenPID) == pid else { return }
        guard let countText = environment["LISTEN_FDS"] else { return }
        guard let count = Int(countText), count >= 0 else {
            throw Self.error("LISTEN_FDS=\(countText) is not a count of descriptors")
        }
        guard count > 0 else { return }
        guard let namesText = environment["LISTEN_FDNAMES"] else {
            guard count <= 2 else {
                throw Self.error("LISTEN_FDS=\(count) without LISTEN_FDNAMES: expected the app socket and at most the admin socket")
            }
            appSocket = Self.firstDescriptor
            adminSocket = count == 2 ? Self.firstDescriptor + 1 : nil
            return
        }
        let names = namesText.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard names.count == count else {
            throw Self.error("LISTEN_FDNAMES=\(namesText) names \(names.count) descriptors but LISTEN_FDS=\(count)")
        }
        for (offset, name) in names.enumerated() {
            let descriptor = Self.firstDescriptor + Int32(offset)
            switch name {
            case "app" where appSocket == nil: appSocket = descriptor
            case "admin" where adminSocket == nil: adminSocket = descriptor
            case "app", "admin": throw Self.error("LISTEN_FDNAMES=\(namesText) passes two sockets named \(name)")
            default:
                throw Self.error("LISTEN_FDNAMES=\(namesText): a socket named '\(name)'; the units name theirs app and admin (FileDescriptorName=)")
            }
        }
    }

    /// Reads this process's passed sockets, unsets the variables (a child must not take them for
    /// its own) and marks the descriptors close-on-exec (systemd passes them inheritable).
    ///
    /// - Throws: FAILED_PRECONDITION when the variables cannot be followed or a descriptor is not open.
    static func takeFromProcess() throws(BrokerError) -> SocketActivation {
        var environment: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        let activation = try SocketActivation(environment: environment, pid: getpid())
        for name in variables { unsetenv(name) }
        for descriptor in [activation.appSocket, activation.adminSocket].compactMap({ $0 }) {
            let flags = fcntl(descriptor, F_GETFD)
            guard flags >= 0, fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                throw error("passed descriptor \(descriptor) is not open: \(String(cString: strerror(errno)))")
            }
        }
        return activation
    }

    private static func error(_ message: String) -> BrokerError {
        BrokerError(code: .failedPrecondition, message: "socket activation: \(message)")
    }
}
