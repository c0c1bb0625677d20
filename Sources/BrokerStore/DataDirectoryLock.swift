public import BrokerModel
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive POSIX record lock on `broker.lock` inside a data directory, held while one store uses it.
///
/// Two brokers on one directory (with other socket paths) would each keep their own in-memory
/// copy of the registry and grants and disagree about both, so the second one must not start.
///
/// Why `fcntl(F_SETLK)` and not `flock` (or open-file-description locks, `F_OFD_SETLK`): those two
/// belong to the open file description, and every child a process spawns (fork, vfork or
/// posix_spawn, which glibc implements with `clone` without `CLONE_FILES`) gets a copy of the
/// whole descriptor table that refers to the same descriptions until it execs; `O_CLOEXEC` acts
/// only at the exec. A store closed and reopened in a process whose other threads spawn children
/// (the test process starting daemons, a broker starting its consent agent) found its own old
/// description still locked by a child between its clone and its exec, and was refused
/// ("in use by process <itself>"): 42% of 20,000 reopens with two threads spawning `/bin/true`,
/// both with `flock` and with `F_OFD_SETLK`, none with `F_SETLK`. A POSIX record lock belongs to
/// the process (on Linux to its descriptor table): a child never holds it, the kernel still drops
/// it when the holder exits however it exits (even `kill -9`), and it conflicts across processes.
///
/// Within one process it never conflicts, and closing *any* descriptor of the file drops it, so
/// a process-wide registry of the locked files (by device and inode) refuses a second store in
/// this process and keeps a descriptor that must not be closed while the lock is held (as
/// SQLite's unix VFS does for its database files). Nothing else in the broker opens the lock file.
///
/// The holder writes its pid into the file, only so that the refusal can name it; the lock, not
/// the pid, decides. The file is never removed: unlinking it would let a third process lock a new
/// file while a second still holds the old one.
public final class DataDirectoryLock {
    /// The lock file's path.
    public let path: String
    /// The open lock file, or -1 once released.
    private var descriptor: Int32
    /// The locked file's identity, the key in `held`.
    private let file: FileIdentity

    /// Takes the lock on the existing directory `directory`, writing this process's pid into the file.
    ///
    /// - Throws: `FAILED_PRECONDITION` naming the holder's pid when another process (or another
    ///   open store in this one) holds it; `database_inaccessible` when the file cannot be used.
    public init(directory: String) throws(BrokerError) {
        let path = DataDirectory.lockPath(in: directory)
        self.path = path
        (descriptor, file) = try Self.held.withLock { held throws(BrokerError) -> (Int32, FileIdentity) in
            // Refused without opening the file when this process holds it: closing the new
            // descriptor would drop the holder's lock.
            var status = stat()
            if stat(path, &status) == 0, held[FileIdentity(status)] != nil {
                throw Self.heldError(directory: directory, path: path, holder: getpid())
            }
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, DataDirectory.fileMode)
            guard descriptor >= 0 else { throw Self.failure("cannot open the lock file", path) }
            guard fstat(descriptor, &status) == 0 else {
                let error = Self.failure("cannot stat the lock file", path)
                close(descriptor)
                throw error
            }
            let file = FileIdentity(status)
            if held[file] != nil {
                // The path now names a file this process holds (replaced since the stat above):
                // kept open until the holder releases it.
                held[file]?.append(descriptor)
                throw Self.heldError(directory: directory, path: path, holder: getpid())
            }
            var request = Self.wholeFile(F_WRLCK)
            while fcntl(descriptor, F_SETLK, &request) != 0 {
                if errno == EINTR { continue }
                let busy = errno == EACCES || errno == EAGAIN
                let error = busy ? Self.heldError(directory: directory, path: path, holder: Self.holder(descriptor))
                                 : Self.failure("cannot lock", path)
                // This process holds no lock on the file (it is not in `held`): closing drops nothing.
                close(descriptor)
                throw error
            }
            held[file] = []
            return (descriptor, file)
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
        // Closed under the registry's mutex: a store opening the directory in another thread
        // between the unregistering and the close would otherwise lose its new lock to this close.
        Self.held.withLock { held in
            for parked in held.removeValue(forKey: file) ?? [] { close(parked) }
            close(descriptor)
        }
        descriptor = -1
    }

    /// The lock files this process holds, each with descriptors that must stay open until it releases.
    private static let held = Mutex<[FileIdentity: [Int32]]>([:])

    /// A request for the whole file (`l_len` 0 reaches past any end).
    private static func wholeFile(_ type: Int32) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0
        return request
    }

    /// The pid of the process holding the lock as the kernel reports it, else as written in the file.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var request = wholeFile(F_WRLCK)
        if fcntl(descriptor, F_GETLK, &request) == 0, request.l_type != Int16(F_UNLCK), request.l_pid > 0 {
            return request.l_pid
        }
        return readPID(descriptor)
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
