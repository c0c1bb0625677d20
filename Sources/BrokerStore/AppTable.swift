import BrokerModel

/// The `apps` table: the app registry's prepared statements and row mapping.
final class AppTable {
    private let database: Database
    private let insert: Statement
    private let selectAll: Statement
    private let selectOne: Statement
    private let delete: Statement
    private let updateToken: Statement

    /// The columns every SELECT and RETURNING reads, in `decode(_:)` order.
    private static let columns = "app_id, name, read_usage, share_usage, pinned_uid, token_hash, created_us, token_rotated_us"

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        self.database = database
        insert = try database.prepare("""
            INSERT INTO apps (app_id, name, read_usage, share_usage, pinned_uid, token_hash, created_us, token_rotated_us)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
            """)
        selectAll = try database.prepare("SELECT \(Self.columns) FROM apps ORDER BY app_id")
        selectOne = try database.prepare("SELECT \(Self.columns) FROM apps WHERE app_id = ?1")
        delete = try database.prepare("DELETE FROM apps WHERE app_id = ?1")
        updateToken = try database.prepare(
            "UPDATE apps SET token_hash = ?2, token_rotated_us = ?3 WHERE app_id = ?1 RETURNING \(Self.columns)")
    }

    /// Inserts a new app; a duplicate id is `ALREADY_EXISTS` naming the id.
    func add(_ registration: AppRegistration, tokenHash: [UInt8], now: Int64) throws(BrokerError) -> AppInfo {
        do {
            try insert.run { statement throws(BrokerError) in
                try statement.bind(registration.appID, at: 1)
                try statement.bind(registration.name, at: 2)
                try statement.bind(registration.readUsage, at: 3)
                try statement.bind(registration.shareUsage, at: 4)
                try statement.bind(registration.pinnedUID.map(Int64.init), at: 5)
                try statement.bind(tokenHash, at: 6)
                try statement.bind(now, at: 7)
                try statement.execute()
            }
        } catch where error.code == .alreadyExists {
            throw .alreadyExists("an app with id \"\(registration.appID)\" is already registered")
        }
        return AppInfo(
            appID: registration.appID, name: registration.name,
            readUsage: registration.readUsage, shareUsage: registration.shareUsage,
            pinnedUID: registration.pinnedUID, createdMicros: now, tokenRotatedMicros: now)
    }

    /// Every app, sorted by id (bytewise UTF-8 order).
    func all() throws(BrokerError) -> [StoredApp] {
        try selectAll.run { statement throws(BrokerError) in
            var apps: [StoredApp] = []
            while try statement.step() {
                apps.append(try Self.decode(statement))
            }
            return apps
        }
    }

    /// The app with `id`, or nil.
    func app(_ id: String) throws(BrokerError) -> StoredApp? {
        try selectOne.run { statement throws(BrokerError) in
            try statement.bind(id, at: 1)
            return try statement.step() ? try Self.decode(statement) : nil
        }
    }

    /// Deletes the app with `id`; false when there was none.
    func remove(_ id: String) throws(BrokerError) -> Bool {
        try delete.run { statement throws(BrokerError) in
            try statement.bind(id, at: 1)
            try statement.execute()
            return database.changedRowCount > 0
        }
    }

    /// Stores a new token hash and rotation time; nil when there is no such app.
    func replaceTokenHash(appID: String, hash: [UInt8], now: Int64) throws(BrokerError) -> AppInfo? {
        try updateToken.run { statement throws(BrokerError) in
            try statement.bind(appID, at: 1)
            try statement.bind(hash, at: 2)
            try statement.bind(now, at: 3)
            guard try statement.step() else { return nil }
            let app = try Self.decode(statement)
            try statement.execute()
            return app.info
        }
    }

    /// Reads the current row (in `columns` order).
    private static func decode(_ row: Statement) throws(BrokerError) -> StoredApp {
        let appID = row.string(at: 0)
        var pinnedUID: UInt32?
        if let raw = row.optionalInt64(at: 4) {
            guard let uid = UInt32(exactly: raw) else {
                throw .internal("app \"\(appID)\" has a stored pinned uid outside the uid range")
            }
            pinnedUID = uid
        }
        let info = AppInfo(
            appID: appID, name: row.string(at: 1),
            readUsage: row.string(at: 2), shareUsage: row.string(at: 3),
            pinnedUID: pinnedUID, createdMicros: row.int64(at: 6), tokenRotatedMicros: row.int64(at: 7))
        return StoredApp(info: info, tokenHash: row.blob(at: 5))
    }
}
