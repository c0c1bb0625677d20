public import BrokerModel
import CSQLite

/// A failed SQLite call: its (extended) result code and SQLite's own message, never bound values.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code, e.g. 2067 for `SQLITE_CONSTRAINT_UNIQUE`.
    public var code: Int32
    /// SQLite's message (`sqlite3_errmsg`, or `sqlite3_errstr` when there is no connection).
    public var sqliteMessage: String
    /// What the broker was doing, e.g. `cannot open database at /path`.
    public var context: String

    /// Creates an error from a result code, reading the message from `connection` if given.
    init(code: Int32, connection: OpaquePointer?, context: String) {
        self.code = code
        self.context = context
        if let connection, let message = sqlite3_errmsg(connection) {
            sqliteMessage = String(cString: message)
        } else if let message = sqlite3_errstr(code) {
            sqliteMessage = String(cString: message)
        } else {
            sqliteMessage = "unknown error"
        }
    }

    /// Creates an error with an explicit message (e.g. the one `sqlite3_exec` hands back).
    init(code: Int32, message: String, context: String) {
        self.code = code
        self.sqliteMessage = message
        self.context = context
    }

    /// The primary result code (the low byte of `code`), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xff }

    /// `context: message (SQLite code N)`.
    public var description: String { "\(context): \(sqliteMessage) (SQLite code \(code))" }

    /// The broker error this becomes: unique violations are `ALREADY_EXISTS`; storage trouble is
    /// `UNAVAILABLE` / `database_inaccessible`; anything else is `INTERNAL`.
    public var brokerError: BrokerError {
        if isUniquenessViolation { return .alreadyExists(description) }
        if Self.inaccessibleCodes.contains(primaryCode) { return .databaseInaccessible(description) }
        return .internal(description)
    }

    /// Whether this is a UNIQUE or PRIMARY KEY constraint failure.
    private var isUniquenessViolation: Bool {
        guard primaryCode == SQLITE_CONSTRAINT else { return false }
        let detail = code >> 8
        return detail == Self.constraintPrimaryKey || detail == Self.constraintUnique || detail == Self.constraintRowID
    }

    /// Extended-code details of `SQLITE_CONSTRAINT` (sqlite3.h: `SQLITE_CONSTRAINT | (n << 8)`).
    private static let constraintPrimaryKey: Int32 = 6
    private static let constraintUnique: Int32 = 8
    private static let constraintRowID: Int32 = 10

    /// Primary codes meaning the database cannot be used right now (disk, permissions, locks).
    private static let inaccessibleCodes: Set<Int32> = [
        SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN,
        SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_BUSY,
    ]
}
