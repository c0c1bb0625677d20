import BrokerModel
import BrokerStore
import Testing

@Suite("Migrations")
struct MigrationsTests {
    @Test func appliedOnceAcrossReopens() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for _ in 0..<3 {
            let store = try BrokerStore(dataDirectory: directory.path)
            store.close()
        }
        let database = try Database(path: DataDirectory.databasePath(in: directory.path))
        defer { database.close() }
        #expect(try database.userVersion() == BrokerSchema.migrations.latestVersion)
        #expect(try BrokerSchema.migrations.apply(to: database) == 0)
    }

    @Test func freshDatabaseRunsEveryStepOnce() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.child("m.sqlite3"))
        defer { database.close() }
        let migrations = Migrations(steps: ["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y INTEGER)"])
        #expect(try migrations.apply(to: database) == 2)
        #expect(try database.userVersion() == 2)
        #expect(try migrations.apply(to: database) == 0)
        let extended = Migrations(steps: migrations.steps + ["CREATE TABLE c (z INTEGER)"])
        #expect(try extended.apply(to: database) == 1)
        #expect(try database.userVersion() == 3)
    }

    @Test func failingStepRollsBackToThePreviousVersion() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.child("m.sqlite3"))
        defer { database.close() }
        let migrations = Migrations(steps: [
            "CREATE TABLE a (x INTEGER)",
            "CREATE TABLE b (y INTEGER); INSERT INTO no_such_table VALUES (1)",
        ])
        #expect(throws: BrokerError.self) { try migrations.apply(to: database) }
        #expect(try database.userVersion() == 1)
        let tables = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        let names = try tables.run { statement throws(BrokerError) in
            var names: [String] = []
            while try statement.step() { names.append(statement.string(at: 0)) }
            return names
        }
        #expect(names == ["a"])
    }

    @Test func newerDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try DataDirectory.prepare(directory.path)
        do {
            let database = try Database(path: DataDirectory.databasePath(in: directory.path))
            try database.setUserVersion(BrokerSchema.migrations.latestVersion + 1)
            database.close()
        }
        let error = #expect(throws: BrokerError.self) { try BrokerStore(dataDirectory: directory.path) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("newer") == true)
    }
}
