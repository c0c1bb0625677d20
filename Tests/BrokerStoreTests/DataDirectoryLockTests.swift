import BrokerModel
import BrokerStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The data directory's lock against the children a process spawns.
@Suite("DataDirectoryLock")
struct DataDirectoryLockTests {
    /// Every child made by fork or posix_spawn copies the descriptor table and so refers to the
    /// lock file's open description until it execs (`O_CLOEXEC` acts only then). This child keeps
    /// its copy for good (dup2 clears close-on-exec), as a child between its clone and its exec
    /// does for a moment: an `flock` (or `F_OFD_SETLK`) lock stayed held by it after the store
    /// closed, and the reopen was refused as "in use by process <this one>".
    @Test func aChildHoldingACopyOfTheLockDescriptorDoesNotKeepTheDirectoryLocked() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let first = try BrokerStore(dataDirectory: temporary.path)
        _ = try first.addApp(AppRegistration(appID: "x", name: "X"), tokenHash: [1], now: 1)
        let descriptor = try #require(Self.openDescriptor(of: DataDirectory.lockPath(in: temporary.path)))
        let child = try Self.spawnHolding(descriptor)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
        }
        first.close()
        // The child still holds its copy of the old description: the reopen is not refused.
        let second = try BrokerStore(dataDirectory: temporary.path)
        #expect(try second.listApps().map(\.appID) == ["x"])
        // And the lock still works within this process while the child lives.
        let error = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: temporary.path) }
        #expect(error?.message.contains("in use by process \(getpid())") == true)
        second.close()
        let third = try BrokerStore(dataDirectory: temporary.path)
        third.close()
    }

    /// A second lock on one directory in one process is refused, and the refused attempt leaves
    /// the holder's lock in place (closing any descriptor of the file would drop a POSIX lock).
    @Test func aRefusedSecondLockInTheProcessLeavesTheFirstHeld() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let lock = try DataDirectoryLock(directory: temporary.path)
        for _ in 0..<2 {
            let error = #expect(throws: BrokerError.self) { try DataDirectoryLock(directory: temporary.path) }
            #expect(error?.code == .failedPrecondition)
        }
        let refused = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: temporary.path) }
        #expect(refused?.code == .failedPrecondition)
        lock.release()
        lock.release()
        let again = try DataDirectoryLock(directory: temporary.path)
        again.release()
    }

    /// The descriptor this process has open on `path`, found through /proc/self/fd.
    private static func openDescriptor(of path: String) -> Int32? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let target = String(cString: resolved)
        for descriptor: Int32 in 0..<4_096 {
            var buffer = [CChar](repeating: 0, count: 4_096)
            let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            if String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == target { return descriptor }
        }
        return nil
    }

    /// Spawns `sleep` with a copy of `descriptor` as its fd 3 (dup2 clears close-on-exec).
    private static func spawnHolding(_ descriptor: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptor, 3)
        let arguments = ["/bin/sleep", "600"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = [nil]
        var child: pid_t = 0
        let result = posix_spawn(&child, "/bin/sleep", &actions, nil, &cArguments, &cEnvironment)
        guard result == 0 else { throw BrokerError(code: .internal, message: "posix_spawn: \(String(cString: strerror(result)))") }
        return child
    }
}
