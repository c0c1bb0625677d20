public import Foundation

/// `healthbrokerd` started the way systemd starts it: listening sockets made by the test and passed
/// as descriptors 3, 4, … with `LISTEN_FDS` / `LISTEN_FDNAMES` / `LISTEN_PID`, and `NOTIFY_SOCKET`
/// naming a datagram socket this helper reads.
///
/// Foundation's `Process` cannot place descriptors at chosen numbers, so the daemon is started with
/// `posix_spawn` (`SpawnedProcess`, dup2 file actions). `LISTEN_PID` must be the daemon's own pid, which is known
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
    /// The daemon's process id (the shell's, which exec kept); 0 before `start`.
    public var pid: pid_t { process?.pid ?? 0 }
    private let notifyDescriptor: Int32
    private var process: SpawnedProcess?

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
        if let process, process.isRunning {
            kill(process.pid, SIGKILL)
            var status: Int32 = 0
            waitpid(process.pid, &status, 0)
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
        // Every signal at its default and none blocked, as systemd starts a service.
        process = try SpawnedProcess(
            executable: "/bin/sh",
            arguments: ["-c", "LISTEN_PID=$$; export LISTEN_PID; exec \"$0\" \"$@\"", binary] + arguments,
            environment: environment, outputPath: logPath, passing: descriptors, defaultSignals: true)
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
    public var isRunning: Bool { process?.isRunning ?? false }

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
        return process?.terminationStatus ?? -1
    }

    /// The daemon's log so far.
    public func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
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
