import BrokerModel
import CSQLite

extension Database {
    /// Registers `catalogue_type(x)` on this connection: a type identifier as `ObjectType` spells it.
    ///
    /// A text that `String` equality treats as a catalogued identifier but spells with other bytes
    /// (U+212A KELVIN SIGN for `K`, …) becomes the catalogue's bytes; any other value is returned
    /// unchanged. SQLite compares text by bytes and has no Unicode normalisation, so the version 8
    /// migration finds and merges the odd spellings earlier brokers stored with it.
    func registerCatalogueTypeFunction() throws(BrokerError) {
        let code = sqlite3_create_function_v2(
            try live(), "catalogue_type", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            catalogueTypeFunction, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, connection: try live(), context: "cannot register catalogue_type").brokerError
        }
    }
}

/// The C entry point of `catalogue_type(x)`.
private func catalogueTypeFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard count == 1, let value = arguments?[0] else { return sqlite3_result_null(context) }
    guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
        return sqlite3_result_value(context, value)
    }
    let utf8 = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    // Only a non-ASCII text can be an odd spelling; everything else (nearly every row) is returned as is.
    guard utf8.contains(where: { $0 >= 0x80 }) else { return sqlite3_result_value(context, value) }
    let type = ObjectType(String(decoding: utf8, as: UTF8.self))
    guard let spelling = TypeCatalogue.catalogueSpelling(of: type),
          !(spelling.count == utf8.count && spelling.elementsEqual(utf8)) else {
        return sqlite3_result_value(context, value)
    }
    sqlite3_result_text(context, UnsafeRawPointer(spelling.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(spelling.count), Statement.transient)
}
