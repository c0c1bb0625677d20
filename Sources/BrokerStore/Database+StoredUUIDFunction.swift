import BrokerModel
import CSQLite

extension Database {
    /// Registers `stored_uuid(x)` on this connection: `x` as `samples.uuid` stores it (`StoredUUID`).
    ///
    /// A canonical UUID text becomes its 16 bytes; any other value is returned unchanged. The
    /// version 6 migration converts the stored uuids with it (SQLite 3.40 has no `unhex`).
    func registerStoredUUIDFunction() throws(BrokerError) {
        let code = sqlite3_create_function_v2(
            try live(), "stored_uuid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            storedUUIDFunction, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, connection: try live(), context: "cannot register stored_uuid").brokerError
        }
    }
}

/// The C entry point of `stored_uuid(x)`.
private func storedUUIDFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard count == 1, let value = arguments?[0] else { return sqlite3_result_null(context) }
    guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
        return sqlite3_result_value(context, value)
    }
    let utf8 = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    guard let words = StoredUUID.words(utf8: utf8) else { return sqlite3_result_value(context, value) }
    StoredUUID.withBytes(of: words) { bytes in
        sqlite3_result_blob(context, bytes.baseAddress, 16, Statement.transient)
    }
}
