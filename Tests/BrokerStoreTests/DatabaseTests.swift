import BrokerModel
@testable import BrokerStore
import Testing

@Suite("Database and Statement")
struct DatabaseTests {
    /// Opens a database with a table `t (id INTEGER PRIMARY KEY, s TEXT NOT NULL, b BLOB)`.
    static func open(_ directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.child("t.sqlite3"))
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT NOT NULL, b BLOB)")
        return database
    }

    static func count(_ database: Database) throws -> Int64 {
        try database.prepare("SELECT count(*) FROM t").run { statement throws(BrokerError) in
            _ = try statement.step()
            return statement.int64(at: 0)
        }
    }

    @Test func sqliteDoesNotCountItsMemoryUse() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Database(path: try DataDirectory.prepare(directory.path))
        defer { database.close() }
        try database.execute("CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(100000));")
        // With statistics on, the open connection and its cache would show here.
        #expect(!Database.countsMemoryUse)
    }

    @Test func statementIsReusedWithFreshBindings() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        defer { database.close() }
        let insert = try database.prepare("INSERT INTO t (id, s, b) VALUES (?1, ?2, ?3)")
        for id in Int64(1)...3 {
            try insert.run { statement throws(BrokerError) in
                try statement.bind(id, at: 1)
                try statement.bind("row \(id)", at: 2)
                if id == 2 { try statement.bind([UInt8(id)], at: 3) }
                try statement.execute()
            }
        }
        let select = try database.prepare("SELECT s, b FROM t WHERE id = ?1")
        let rows = try (Int64(1)...3).map { id in
            try select.run { statement throws(BrokerError) in
                try statement.bind(id, at: 1)
                #expect(try statement.step())
                return (statement.string(at: 0), statement.optionalBlob(at: 1))
            }
        }
        #expect(rows.map(\.0) == ["row 1", "row 2", "row 3"])
        #expect(rows.map(\.1) == [nil, [2], nil])  // bindings were cleared between uses
    }

    @Test func emptyTextAndBlobAreNotNull() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        defer { database.close() }
        try database.prepare("INSERT INTO t (id, s, b) VALUES (1, ?1, ?2)").run { statement throws(BrokerError) in
            try statement.bind("", at: 1)
            try statement.bind([UInt8](), at: 2)
            try statement.execute()
        }
        let isNull = try database.prepare("SELECT s IS NULL, b IS NULL, length(b) FROM t").run { statement throws(BrokerError) in
            _ = try statement.step()
            return [statement.int64(at: 0), statement.int64(at: 1), statement.int64(at: 2)]
        }
        #expect(isNull == [0, 0, 0])
    }

    @Test func transactionRollsBackOnError() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        defer { database.close() }
        let error = #expect(throws: BrokerError.self) {
            try database.transaction { () throws(BrokerError) in
                try database.execute("INSERT INTO t (id, s) VALUES (1, 'a')")
                throw .invalidArgument("stop")
            }
        }
        #expect(error?.message == "stop")
        #expect(try Self.count(database) == 0)
        let value = try database.transaction { () throws(BrokerError) -> Int in
            try database.execute("INSERT INTO t (id, s) VALUES (1, 'a')")
            return 42
        }
        #expect(value == 42)
        #expect(try Self.count(database) == 1)
    }

    @Test func nestedTransactionIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        defer { database.close() }
        let error = #expect(throws: BrokerError.self) {
            try database.transaction { () throws(BrokerError) in
                try database.execute("INSERT INTO t (id, s) VALUES (1, 'a')")
                try database.transaction { () throws(BrokerError) in }
            }
        }
        #expect(error?.code == .internal)
        #expect(try Self.count(database) == 0)
    }

    @Test func constraintErrorsMapWithoutBoundValues() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        defer { database.close() }
        let insert = try database.prepare("INSERT INTO t (id, s) VALUES (?1, ?2)")
        func add(_ id: Int64, _ text: String?) throws(BrokerError) {
            try insert.run { statement throws(BrokerError) in
                try statement.bind(id, at: 1)
                try statement.bind(text, at: 2)
                try statement.execute()
            }
        }
        try add(1, "secret-value-one")
        let duplicate = #expect(throws: BrokerError.self) { try add(1, "secret-value-two") }
        #expect(duplicate?.code == .alreadyExists)
        #expect(duplicate?.message.contains("secret") == false)
        let notNull = #expect(throws: BrokerError.self) { try add(2, nil) }
        #expect(notNull?.code == .internal)
        #expect(try Self.count(database) == 1)
    }

    @Test func closeIsIdempotentAndLaterUseFails() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        let statement = try database.prepare("SELECT 1")
        database.close()
        database.close()
        #expect(database.isClosed)
        #expect(throws: BrokerError.self) { try statement.step() }
        #expect(throws: BrokerError.self) { try database.prepare("SELECT 1") }
        #expect(throws: BrokerError.self) { try database.execute("SELECT 1") }
    }

    @Test func sqlErrorsAreInternal() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        defer { database.close() }
        let error = #expect(throws: BrokerError.self) { try database.prepare("SELEC nonsense") }
        #expect(error?.code == .internal)
    }
}
