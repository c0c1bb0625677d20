public import BrokerModel
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on `broker.lock` inside a data directory, held while one store uses it.
///
/// Two brokers on one directory (with other socket paths) would each keep their own in-memory
/// copy of the registry and grants and disagree about both, so the second one must not start.
/// `flock` belongs to the open file description: the kernel drops it when the holder exits,
/// however it exits (even `kill -9`), so a stale lock file never blocks a restart, and a second
/// open of the file conflicts even within one process. The holder writes its pid into the file,
/// only so that the refusal can name it; the lock, not the pid, decides. The file is never
/// removed: unlinking it would let a third process lock a new file while a second still holds
/// the old one.
public final class DataDirectoryLock {
    /// The lock file's path.
    public let path: String
    /// The open lock file, or -1 once released.
    private var descriptor: Int32

    /// Takes the lock on the existing directory `directory`, writing this process's pid into the file.
    ///
    /// - Throws: `FAILED_PRECONDITION` naming the holder's pid when another process (or another
    ///   open store in this one) holds it; `database_inaccessible` when the file cannot be used.
    public init(directory: String) throws(BrokerError) {
        path = DataDirectory.lockPath(in: directory)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, DataDirectory.fileMode)
        guard descriptor >= 0 else { throw Self.failure("cannot open the lock file", path) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let error = busy ? Self.heldError(directory: directory, path: path, holder: Self.readPID(descriptor))
                             : Self.failure("cannot lock", path)
            close(descriptor)
            descriptor = -1
            throw error
        }
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, text, text.count, 0) == text.count else {
            let error = Self.failure("cannot write the lock file", path)
            release()
            throw error
        }
    }

    deinit { release() }

    /// Empties the file (no pid of a process that no longer holds it) and drops the lock; idempotent.
    public func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        close(descriptor)
        descriptor = -1
    }

    /// The pid written in the lock file, if it holds one.
    ///
    /// A holder that has just taken the lock may not have written it yet: nil then.
    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first ?? ""
        return Int32(text)
    }

    /// The refusal when another holds the lock.
    private static func heldError(directory: String, path: String, holder: Int32?) -> BrokerError {
        let who = holder.map { "process \($0)" } ?? "another process"
        return BrokerError(
            code: .failedPrecondition,
            message: "the data directory \(directory) is in use by \(who) (it holds the lock on \(path)); stop that broker or choose another --data-dir")
    }

    /// A `database_inaccessible` error naming the action, the path and `errno`.
    private static func failure(_ action: String, _ path: String) -> BrokerError {
        let reason = String(cString: strerror(errno))
        return .databaseInaccessible("\(action) \(path): \(reason)")
    }
}
