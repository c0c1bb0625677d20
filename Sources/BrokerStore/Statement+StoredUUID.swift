import BrokerModel
import CSQLite

extension Statement {
    /// Binds `uuid` as `samples.uuid` stores it (`StoredUUID`): 16 bytes when canonical, else text.
    func bind(storedUUID uuid: String, at index: Int32) throws(BrokerError) {
        try bind(storedUUID: StoredUUID.words(uuid), text: uuid, at: index)
    }

    /// Binds a uuid whose `StoredUUID.words` were worked out before (nil: `text` is not canonical and is bound as text).
    func bind(storedUUID words: (UInt64, UInt64)?, text: String, at index: Int32) throws(BrokerError) {
        guard let words else { return try bind(text, at: index) }
        try StoredUUID.withBytes(of: words) { (bytes) throws(BrokerError) in try bind(bytes: bytes, at: index) }
    }

    /// Column `index` (from 0) read as `samples.uuid` stores it: 16 bytes as the canonical text, text as itself.
    func storedUUID(at index: Int32) -> String {
        guard sqlite3_column_type(handle, index) == SQLITE_BLOB else { return string(at: index) }
        let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, index), count: Int(sqlite3_column_bytes(handle, index)))
        // The store writes no blob uuid of another length; should one appear, it reads as its hex digits.
        guard bytes.count == 16 else { return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
        return StoredUUID.text(bytes: bytes)
    }
}
