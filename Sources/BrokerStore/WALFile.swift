import BrokerModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A database's WAL file, opened for fsync on first use and reopened if SQLite replaced it.
final class WALFile: @unchecked Sendable {
    /// The `-wal` file's path.
    let path: String
    /// Used by one thread at a time: the syncer's, or a caller's once that thread has stopped.
    private var descriptor: Int32 = -1

    /// The WAL at `path`; nothing is opened until the first `sync()`.
    init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// fdatasyncs the WAL, first making sure its directory entry is durable when newly opened.
    func sync() throws(BrokerError) {
        var info = stat()
        if descriptor >= 0, fstat(descriptor, &info) == 0, info.st_nlink == 0 {
            close(descriptor)
            descriptor = -1
        }
        if descriptor < 0 {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Self.failure("cannot open", path) }
            descriptor = opened
            try syncDirectory()
        }
        guard fdatasync(descriptor) == 0 else { throw Self.failure("cannot fsync", path) }
    }

    /// fsyncs the directory holding the WAL, so the file's name survives a power cut too.
    private func syncDirectory() throws(BrokerError) {
        let directory = (path as NSString).deletingLastPathComponent
        let handle = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { throw Self.failure("cannot open", directory) }
        defer { close(handle) }
        guard fsync(handle) == 0 else { throw Self.failure("cannot fsync", directory) }
    }

    private static func failure(_ what: String, _ path: String) -> BrokerError {
        .databaseInaccessible("\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
