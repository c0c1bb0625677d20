import BrokerModel
import BrokerStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("DataDirectory")
struct DataDirectoryTests {
    @Test func directoryIs0700AndDatabaseFilesAre0600() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let data = temporary.child("a/b/data")
        let store = try BrokerStore(dataDirectory: data)
        defer { store.close() }
        _ = try store.addApp(AppRegistration(appID: "x", name: "X"), tokenHash: [1], now: 1)  // WAL now holds data

        #expect(permissionBits(data) == 0o700)
        #expect(store.databasePath == data + "/broker.sqlite3")
        for suffix in ["", "-wal", "-shm"] {
            #expect(permissionBits(store.databasePath + suffix) == 0o600, "broker.sqlite3\(suffix)")
        }
    }

    @Test func looserExistingPermissionsAreTightened() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let data = temporary.child("data")
        #expect(mkdir(data, 0o755) == 0)
        #expect(chmod(data, 0o755) == 0)
        do {
            let store = try BrokerStore(dataDirectory: data)
            store.close()
        }
        #expect(chmod(data, 0o777) == 0)
        let database = DataDirectory.databasePath(in: data)
        #expect(chmod(database, 0o644) == 0)
        writeFile(database + "-wal", [], mode: 0o666)
        writeFile(database + "-shm", [], mode: 0o644)

        try DataDirectory.prepare(data)
        #expect(permissionBits(data) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(permissionBits(database + suffix) == 0o600, "broker.sqlite3\(suffix)")
        }
    }

    @Test func uncreatableDirectoryIsDatabaseInaccessible() {
        let error = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: "/dev/null/x") }
        #expect(error?.domain == .databaseInaccessible)
        #expect(error?.code == .unavailable)
    }

    @Test func unopenableDatabaseIsDatabaseInaccessible() {
        let error = #expect(throws: BrokerError.self) { try Database(path: "/dev/null/x/broker.sqlite3") }
        #expect(error?.domain == .databaseInaccessible)
    }

    @Test func regularFileAsDirectoryIsDatabaseInaccessible() {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        writeFile(temporary.child("file"), [1, 2, 3])
        let error = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: temporary.child("file")) }
        #expect(error?.domain == .databaseInaccessible)
    }

    @Test func garbageDatabaseFileIsDatabaseInaccessible() {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        writeFile(DataDirectory.databasePath(in: temporary.path), Array(repeating: 0x78, count: 4096), mode: 0o600)
        let error = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: temporary.path) }
        #expect(error?.domain == .databaseInaccessible)
    }

    @Test func oneStoreAtATimeHoldsTheDirectoryAndTheRefusalNamesTheHolder() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let first = try BrokerStore(dataDirectory: temporary.path)
        let lockPath = DataDirectory.lockPath(in: temporary.path)
        #expect(readText(lockPath) == "\(getpid())\n")
        #expect(permissionBits(lockPath) == 0o600)
        // A second store in one process is refused (DataDirectoryLock's registry), as a second daemon
        // is (the kernel's record lock). readText above opened and closed the lock file, which drops
        // this process's record lock: the registry, not the kernel, refuses here.
        let error = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: temporary.path) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("in use by process \(getpid())") == true)
        #expect(error?.message.contains(lockPath) == true)
        // The refused store changed nothing: the first still works.
        _ = try first.addApp(AppRegistration(appID: "x", name: "X"), tokenHash: [1], now: 1)
        first.close()
        #expect(readText(lockPath) == "")
        let second = try BrokerStore(dataDirectory: temporary.path)
        defer { second.close() }
        #expect(try second.listApps().map(\.appID) == ["x"])
    }

    @Test func aLockFileLeftByAnEarlierHolderDoesNotBlock() throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        writeFile(DataDirectory.lockPath(in: temporary.path), Array("999999\n".utf8), mode: 0o600)
        let store = try BrokerStore(dataDirectory: temporary.path)
        defer { store.close() }
        #expect(readText(DataDirectory.lockPath(in: temporary.path)) == "\(getpid())\n")
    }

    private func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }
}
