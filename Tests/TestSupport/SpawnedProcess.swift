public import Foundation

/// A child process started with `posix_spawn`, for the daemons the tests start by the hundred.
///
/// Not Foundation's `Process.run()`: on Linux (Swift 6.3.1) it reads `/proc/self/fd` to close the
/// descriptors the child must not inherit and copies each entry's whole 256-byte name, reading past
/// glibc's buffer (swift-corelibs-foundation PR #5472, fixed after 6.3). With the many descriptors a
/// full parallel run holds open, that crashed the test process with SIGSEGV in a daemon start.
/// Here glibc closes them (`posix_spawn_file_actions_addclosefrom_np`).
public final class SpawnedProcess: @unchecked Sendable {
    /// The child's process id.
    public let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `executable` with `arguments`, stdin from /dev/null, stdout and stderr appended to
    /// `outputPath`, in a process group of its own (as `Process` does). With `defaultSignals` every
    /// signal is at its default action and none is blocked, as from a shell; otherwise the child
    /// inherits this process's dispositions, as with `Process`.
    public init(executable: String, arguments: [String], outputPath: String, defaultSignals: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Other tests' sockets and pipes stay out of the child.
        Self.addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETPGROUP)
        if defaultSignals {
            var all = sigset_t()
            sigfillset(&all)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setsigmask(&attributes, &none)
            flags |= Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else { throw DaemonError("posix_spawn \(executable) failed: \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit {
        // Reap a child still running (killed by the owner, say) on a thread of its own, so that no
        // zombie is left and no cooperative thread blocks.
        if isRunning {
            let pid = pid
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
        }
    }

    /// Whether the child is still running (reaps it once it has exited).
    public var isRunning: Bool {
        lock.withLock {
            guard status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid {
                // WIFEXITED / WEXITSTATUS, which Swift does not import (macros): 128 + signal otherwise.
                status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                return false
            }
            if reaped < 0, errno == ECHILD {
                status = -1
                return false
            }
            return true
        }
    }

    /// The exit status (128 + signal if killed); -1 while running or when it could not be read.
    public var terminationStatus: Int32 {
        _ = isRunning
        return lock.withLock { status ?? -1 }
    }

    /// Waits for the child to exit, or for `timeout` of this task's scheduled time
    /// (`ScheduledDeadline`); true if it exited. Polls without blocking a cooperative thread.
    public func exited(within timeout: Duration) async -> Bool {
        var deadline = ScheduledDeadline(timeout)
        while isRunning {
            if deadline.hasPassed() { return !isRunning }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does
    /// not import (declared only for _GNU_SOURCE): looked up at run time.
    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, first)
    }
}
