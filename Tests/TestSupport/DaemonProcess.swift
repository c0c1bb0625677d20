public import Foundation
public import HealthBrokerClient

/// A real `healthbrokerd` started on a temporary socket pair and data directory, for end-to-end tests.
///
/// The daemon binary is `$HEALTHBROKERD_PATH`, or `healthbrokerd` next to the running test binary
/// (SwiftPM puts both in the same build folder). Its stderr goes to `logPath`.
public final class DaemonProcess: @unchecked Sendable {
    /// The temporary folder holding sockets, data and the log.
    public let directory: String
    /// The app socket path.
    public let appSocket: String
    /// The admin socket path.
    public let adminSocket: String
    /// The data directory.
    public let dataDirectory: String
    /// The daemon's stderr.
    public let logPath: String
    /// Extra flags passed on every start.
    public let extraArguments: [String]
    /// Whether the daemon starts with every signal at its default action.
    public let defaultSignals: Bool
    private var process: SpawnedProcess?

    /// Starts a daemon in a fresh temporary folder and waits until both sockets answer.
    ///
    /// `policy` is the text of a consent policy file the daemon decides prompts with. With
    /// `defaultSignals` the daemon starts with every signal at its default action and none blocked,
    /// as from a shell: a test runner may ignore SIGHUP, and an ignored signal stays ignored across
    /// exec, which would hide what SIGHUP does to a daemon.
    public init(extraArguments: [String] = [], policy: String? = nil, defaultSignals: Bool = false) async throws {
        self.defaultSignals = defaultSignals
        var template = Array("/tmp/hb-test-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw DaemonError("mkdtemp failed") }
        directory = String(cString: created)
        appSocket = directory + "/app.sock"
        adminSocket = directory + "/admin.sock"
        dataDirectory = directory + "/data"
        logPath = directory + "/daemon.log"
        var arguments = extraArguments
        if let policy {
            let policyPath = directory + "/policy.json"
            try policy.write(toFile: policyPath, atomically: true, encoding: .utf8)
            arguments += ["--consent-policy", policyPath]
        }
        self.extraArguments = arguments
        try await start()
    }

    deinit {
        // No waiting here: deinit may run on a cooperative thread. `SpawnedProcess` reaps the
        // killed process on a thread of its own.
        if let process, process.isRunning {
            kill(process.pid, SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The process id of the running daemon.
    public var pid: Int32 { process?.pid ?? 0 }

    /// Whether the daemon process is still running.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Starts (or restarts) the daemon on the same paths and waits for its sockets.
    ///
    /// Started with `posix_spawn` (`SpawnedProcess`), not Foundation's `Process`, whose `run()`
    /// crashed a full parallel run (an over-read of `/proc/self/fd` entries in Swift 6.3.1).
    public func start(arguments extra: [String] = []) async throws {
        let binary = try Self.binaryPath()
        let arguments = [
            "--socket", appSocket, "--admin-socket", adminSocket, "--data-dir", dataDirectory, "--log-level", "debug",
        ] + extraArguments + extra
        process = try SpawnedProcess(executable: binary, arguments: arguments, outputPath: logPath, defaultSignals: defaultSignals)
        try await waitForSockets()
    }

    /// Sends `signal` and waits for the daemon to exit; returns its exit status.
    ///
    /// `timeout` counts only this task's scheduled time (`Process.exited(within:)`): the pool sitting
    /// behind CPU-bound suites does not fail a daemon that exited meanwhile.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 15) async throws -> Int32 {
        guard let process else { throw DaemonError("daemon not started") }
        if process.isRunning { kill(process.pid, signal) }
        guard await process.exited(within: .milliseconds(Int64(timeout * 1_000))) else {
            kill(process.pid, SIGKILL)
            _ = await process.exited(within: .seconds(60))
            throw DaemonError("daemon did not exit within \(timeout) s after signal \(signal)")
        }
        return process.terminationStatus
    }

    /// The daemon's log so far.
    public func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Opens an admin connection.
    public func admin() async throws -> BrokerAdmin {
        try await BrokerAdmin.connect(socketPath: adminSocket)
    }

    /// Registers an app through the admin socket and returns its credentials.
    public func registerApp(_ appID: String, name: String? = nil, readUsage: String = "reads for tests", shareUsage: String = "writes for tests") async throws -> AppCredentials {
        let admin = try await admin()
        defer { admin.close() }
        return try await admin.addApp(AppRegistration(appID: appID, name: name ?? appID, readUsage: readUsage, shareUsage: shareUsage))
    }

    /// Registers an app and opens a session for it.
    public func connectApp(_ appID: String) async throws -> HealthStore {
        let credentials = try await registerApp(appID)
        return try await HealthStore.connect(socketPath: appSocket, appID: appID, appToken: credentials.token)
    }

    /// How long a start may take, in the waiting task's scheduled time (`ScheduledDeadline`), before
    /// the test gives up. The full parallel suite on two cores starts dozens of daemons at once; a
    /// daemon that had logged "broker started" was once not seen by its test within 20 s, so this
    /// only bounds a start that never comes.
    public static let startTimeout: TimeInterval = 60

    /// Waits until both sockets accept; fails at once if the daemon exits, and after `startTimeout`
    /// of this task's scheduled time if they never do.
    ///
    /// A wall-clock deadline failed 161 starts in one full-suite run at load 10-17: the waiting task
    /// sat behind CPU-bound suites on the cooperative pool, and the first look after that found the
    /// minute gone, without checking the sockets once more. Counted in scheduled time, a daemon
    /// that hangs before listening still fails the test after about a minute of polling.
    private func waitForSockets() async throws {
        var deadline = ScheduledDeadline(.seconds(Self.startTimeout))
        while true {
            if let process, !process.isRunning {
                throw DaemonError("daemon exited with status \(process.terminationStatus) at start:\n\(log())")
            }
            if Self.accepts(appSocket), Self.accepts(adminSocket) { return }
            if deadline.hasPassed() { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        // The test gives up on this daemon: end it, or it outlives the test run (seen when a
        // starved suite timed out here: the daemons stayed behind, orphaned).
        if let process, process.isRunning { kill(process.pid, SIGKILL) }
        throw DaemonError("daemon sockets did not appear within \(Int(Self.startTimeout)) s of polling:\n\(log())")
    }

    /// True when something accepts connections on the Unix socket at `path`.
    public static func accepts(_ path: String) -> Bool {
        guard let fd = RawUnixSocket.connect(path) else { return false }
        close(fd)
        return true
    }

    /// Where the daemon binary is.
    public static func binaryPath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["HEALTHBROKERD_PATH"] { return path }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // Swift Testing may run from inside a .xctest bundle folder.
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("healthbrokerd").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw DaemonError("healthbrokerd not found next to \(executable): run `swift build` first or set HEALTHBROKERD_PATH")
    }
}

/// A failure of the test harness itself (not of the broker).
public struct DaemonError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
