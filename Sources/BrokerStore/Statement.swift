public import BrokerModel
import CSQLite

/// A prepared SQLite statement, prepared once and reused for the life of its `Database`.
///
/// Same thread confinement as its `Database`. Use `run(_:)` for each execution: it resets the
/// statement and clears its bindings before and after, so no read transaction stays open and no
/// bound value outlives the call. Parameter and column indices are SQLite's: parameters count
/// from 1, columns from 0.
public final class Statement {
    /// The `sqlite3_stmt`, or nil once finalized.
    private(set) var handle: OpaquePointer?

    /// SQLite's stand-in for `SQLITE_TRANSIENT`: SQLite copies bound text and blobs.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Wraps a freshly prepared statement; the owning `Database` finalizes it.
    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Finalizes the statement; later use throws. Called by `Database.close()`.
    func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }

    /// The live handle, or an error once the database is closed.
    private func live() throws(BrokerError) -> OpaquePointer {
        guard let handle else { throw .internal("statement used after its database was closed") }
        return handle
    }

    /// Turns a non-OK result code into a broker error.
    private func check(_ code: Int32, _ context: @autoclosure () -> String) throws(BrokerError) {
        guard code != SQLITE_OK else { return }
        throw SQLiteError(code: code, connection: handle.flatMap { sqlite3_db_handle($0) }, context: context()).brokerError
    }

    /// Resets the statement and clears its bindings (`sqlite3_reset` + `sqlite3_clear_bindings`).
    ///
    /// The result of `sqlite3_reset` repeats the last step's error, which `step()` already reported.
    public func reset() {
        guard let handle else { return }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Runs `body` with a freshly reset statement and resets it again afterwards, even on error.
    public func run<T>(_ body: (Statement) throws(BrokerError) -> T) throws(BrokerError) -> T {
        reset()
        defer { reset() }
        return try body(self)
    }

    /// Binds an integer, or NULL for nil, to parameter `index` (from 1).
    public func bind(_ value: Int64?, at index: Int32) throws(BrokerError) {
        let handle = try live()
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_int64(handle, index, value), "cannot bind parameter \(index)")
    }

    /// Binds a floating-point value, or NULL for nil, to parameter `index` (from 1); NaN binds as NULL.
    public func bind(_ value: Double?, at index: Int32) throws(BrokerError) {
        let handle = try live()
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_double(handle, index, value), "cannot bind parameter \(index)")
    }

    /// Binds UTF-8 text, or NULL for nil, to parameter `index` (from 1); SQLite copies it.
    public func bind(_ value: String?, at index: Int32) throws(BrokerError) {
        let handle = try live()
        guard let value else { return try bindNull(at: index) }
        let length = UInt64(value.utf8.count)
        // withCString always hands over a real pointer, so "" binds as empty text, not NULL.
        let code = value.withCString { text in
            sqlite3_bind_text64(handle, index, text, length, Self.transient, UInt8(SQLITE_UTF8))
        }
        try check(code, "cannot bind parameter \(index)")
    }

    /// Binds a blob, or NULL for nil, to parameter `index` (from 1); SQLite copies it.
    public func bind(_ value: [UInt8]?, at index: Int32) throws(BrokerError) {
        let handle = try live()
        guard let value else { return try bindNull(at: index) }
        try check(value.withUnsafeBytes { Self.bindBlob(handle, index, $0) }, "cannot bind parameter \(index)")
    }

    /// Binds `bytes` as a blob to parameter `index` (from 1); SQLite copies them.
    func bind(bytes: UnsafeRawBufferPointer, at index: Int32) throws(BrokerError) {
        try check(Self.bindBlob(try live(), index, bytes), "cannot bind parameter \(index)")
    }

    /// `sqlite3_bind_blob64` of `bytes` (copied). A nil base would bind NULL, and empty storage may
    /// have none: no bytes bind a zero-length blob.
    private static func bindBlob(_ handle: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), transient)
    }

    /// Binds NULL to parameter `index` (from 1).
    public func bindNull(at index: Int32) throws(BrokerError) {
        try check(sqlite3_bind_null(try live(), index), "cannot bind parameter \(index)")
    }

    /// Advances the statement: true when a row is ready to read, false when it is done.
    public func step() throws(BrokerError) -> Bool {
        let handle = try live()
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: code, connection: sqlite3_db_handle(handle), context: "statement failed").brokerError
        }
    }

    /// Steps until the statement is done, discarding any rows (for INSERT, UPDATE, DELETE).
    public func execute() throws(BrokerError) {
        while try step() {}
    }

    /// The number of columns in a result row.
    public var columnCount: Int32 { handle.map { sqlite3_column_count($0) } ?? 0 }

    /// Whether column `index` (from 0) of the current row is NULL.
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` (from 0) as an integer; NULL reads as 0.
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` (from 0) as an integer, or nil when it is NULL.
    public func optionalInt64(at index: Int32) -> Int64? {
        isNull(at: index) ? nil : int64(at: index)
    }

    /// Column `index` (from 0) as a floating-point value; NULL reads as 0.
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` (from 0) as a floating-point value, or nil when it is NULL.
    public func optionalDouble(at index: Int32) -> Double? {
        isNull(at: index) ? nil : double(at: index)
    }

    /// Column `index` (from 0) as text; NULL reads as the empty string.
    public func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` (from 0) as text, or nil when it is NULL (one call into SQLite, not two).
    public func optionalString(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` (from 0) as bytes; NULL and the empty blob both read as `[]`.
    public func blob(at index: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Column `index` (from 0) as bytes, or nil when it is NULL.
    public func optionalBlob(at index: Int32) -> [UInt8]? {
        isNull(at: index) ? nil : blob(at: index)
    }
}
