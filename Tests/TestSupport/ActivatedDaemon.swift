public import Foundation

/// `healthbrokerd` started the way systemd starts it: listening sockets made by the test and passed
/// as descriptors 3, 4, … with `LISTEN_FDS` / `LISTEN_FDNAMES` / `LISTEN_PID`, and `NOTIFY_SOCKET`
/// naming a datagram socket this helper reads.
///
/// Foundation's `Process` cannot place descriptors at chosen numbers, so the daemon is started with
/// `posix_spawn` (dup2 file actions). `LISTEN_PID` must be the daemon's own pid, which is known
/// only once it runs: a shell sets it to its `$$` and then execs the daemon, keeping the pid.
public final class ActivatedDaemon: @unchecked Sendable {
    /// The temporary folder holding the sockets, the data directory and the log.
    public let directory: String
    /// The data directory.
    public let dataDirectory: String
    /// The daemon's stdout and stderr.
    public let logPath: String
    /// The notification socket's path (`NOTIFY_SOCKET`).
    public let notifySocket: String
    /// The daemon's process id (the shell's, which exec kept).
    public private(set) var pid: pid_t = 0
    private let notifyDescriptor: Int32
    private var exitStatus: Int32?

    /// Creates the folder and the notification socket; `start` runs the daemon.
    public init() throws {
        var template = Array("/tmp/hb-activated-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw DaemonError("mkdtemp failed") }
        directory = String(cString: created)
        dataDirectory = directory + "/data"
        logPath = directory + "/daemon.log"
        notifySocket = directory + "/notify.sock"
        notifyDescriptor = try Self.bound(path: notifySocket, type: Int32(SOCK_DGRAM.rawValue), listening: false)
    }

    deinit {
        if pid > 0, exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(notifyDescriptor)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A Unix stream socket bound at `path` and listening, as systemd's `ListenStream=` makes one.
    public static func listeningSocket(at path: String) throws -> Int32 {
        try bound(path: path, type: Int32(SOCK_STREAM.rawValue), listening: true)
    }

    /// Starts the daemon with `arguments`, passing `descriptors` as 3, 4, … (`LISTEN_FDS` is their
    /// count, `LISTEN_FDNAMES` is `names` when given). With `journalStream`, `JOURNAL_STREAM` names
    /// the log file's device and inode, as when stderr is the journal.
    public func start(arguments: [String], passing descriptors: [Int32] = [], names: String? = nil, journalStream: Bool = false) throws {
        let binary = try DaemonProcess.binaryPath()
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        var environment = ProcessInfo.processInfo.environment
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "JOURNAL_STREAM"] { environment[name] = nil }
        environment["NOTIFY_SOCKET"] = notifySocket
        if !descriptors.isEmpty { environment["LISTEN_FDS"] = String(descriptors.count) }
        if let names { environment["LISTEN_FDNAMES"] = names }
        if journalStream {
            var info = stat()
            guard stat(logPath, &info) == 0 else { throw DaemonError("stat \(logPath) failed") }
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }
        // Sources far above the targets: a dup2 onto 3 must not overwrite the source of the next one.
        let sources = try descriptors.map { descriptor in
            let high = fcntl(descriptor, F_DUPFD_CLOEXEC, 100)
            guard high >= 0 else { throw DaemonError("dup of fd \(descriptor) failed") }
            return high
        }
        defer { for source in sources { close(source) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for (offset, source) in sources.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, source, 3 + Int32(offset))
        }
        // Everything else the test process has open (other tests' sockets) stays out of the daemon.
        Self.addCloseFrom(&actions, 3 + Int32(sources.count))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Every signal at its default and none blocked, as systemd starts a service.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ["/bin/sh", "-c", "LISTEN_PID=$$; export LISTEN_PID; exec \"$0\" \"$@\"", binary] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = envp.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else { throw DaemonError("posix_spawn failed: \(String(cString: strerror(result)))") }
        pid = child
    }

    /// The next notification datagram, or nil when none comes within `timeout` of this task's
    /// scheduled time (`ScheduledDeadline`) or the daemon exits.
    ///
    /// A wall-clock deadline failed all four systemd tests in a full run beside two CPU hogs: the
    /// daemon had notified READY at once, but the task sat behind CPU-bound suites for over a
    /// minute and then gave up without looking.
    public func nextNotification(timeout: Duration = .seconds(DaemonProcess.startTimeout)) async throws -> String? {
        var deadline = ScheduledDeadline(timeout)
        while true {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(notifyDescriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count >= 0 { return String(decoding: buffer[..<count], as: UTF8.self) }
            if !isRunning || deadline.hasPassed() { return nil }
            // Sleep without blocking a cooperative thread: other tests run meanwhile.
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Whether the daemon is still running (reaps it once it has exited).
    public var isRunning: Bool {
        guard pid > 0, exitStatus == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        // WIFEXITED / WEXITSTATUS, which Swift does not import (macros): 128 + signal otherwise.
        exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return false
    }

    /// Sends `signal` and waits for the daemon to exit, for up to `timeout` of this task's scheduled
    /// time (`ScheduledDeadline`); returns its exit status (128 + signal if killed).
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(15)) async throws -> Int32 {
        if isRunning { kill(pid, signal) }
        var deadline = ScheduledDeadline(timeout)
        while isRunning {
            if deadline.hasPassed(), isRunning {
                kill(pid, SIGKILL)
                throw DaemonError("daemon did not exit within \(timeout) after signal \(signal):\n\(log())")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return exitStatus ?? -1
    }

    /// The daemon's log so far.
    public func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does
    /// not import (declared only for _GNU_SOURCE): looked up at run time.
    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, first)
    }

    private static func bound(path: String, type: Int32, listening: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("socket failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, !listening || listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError("bind/listen \(path) failed: \(reason)")
        }
        return fd
    }
}
