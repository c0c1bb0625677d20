import BrokerModel

/// The `grants` table: each app's recorded share and read decisions, one row per type.
///
/// Row encoding: `share` 1 deny / 2 allow; `read` 1 deny / 2 full / 3 limited with `read_from_us`;
/// NULL for a part that was never asked. The methods here run no transactions of their own:
/// `BrokerStore` wraps multi-row writes.
final class GrantTable {
    private let database: Database
    private let selectAll: Statement
    private let upsert: Statement
    private let deleteOne: Statement
    private let deleteApp: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        self.database = database
        selectAll = try database.prepare("""
            SELECT app_id, type, share, read, read_from_us, decided_us, decided_by
            FROM grants ORDER BY app_id, type
            """)
        upsert = try database.prepare("""
            INSERT INTO grants (app_id, type, share, read, read_from_us, decided_us, decided_by)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (app_id, type) DO UPDATE SET
                share = excluded.share, read = excluded.read, read_from_us = excluded.read_from_us,
                decided_us = excluded.decided_us, decided_by = excluded.decided_by
            """)
        deleteOne = try database.prepare("DELETE FROM grants WHERE app_id = ?1 AND type = ?2")
        deleteApp = try database.prepare("DELETE FROM grants WHERE app_id = ?1")
    }

    /// Every grant, by app id; each app's grants sorted by type identifier (bytewise UTF-8 order).
    func all() throws(BrokerError) -> [String: [Grant]] {
        try selectAll.run { statement throws(BrokerError) in
            var grants: [String: [Grant]] = [:]
            while try statement.step() {
                grants[statement.string(at: 0), default: []].append(try Self.decode(statement))
            }
            return grants
        }
    }

    /// Inserts or replaces the row for `grant.type`, storing the grant exactly as given.
    func upsert(appID: String, _ grant: Grant) throws(BrokerError) {
        let share: Int64? = grant.share.map { Int64($0.rawValue) }
        var read: Int64?
        var readFrom: Int64?
        switch grant.read {
        case nil: break
        case .deny: read = Self.readDeny
        case .full: read = Self.readFull
        case .limited(let fromMicros): (read, readFrom) = (Self.readLimited, fromMicros)
        }
        try upsert.run { statement throws(BrokerError) in
            try statement.bind(appID, at: 1)
            try statement.bind(grant.type.identifier, at: 2)
            try statement.bind(share, at: 3)
            try statement.bind(read, at: 4)
            try statement.bind(readFrom, at: 5)
            try statement.bind(grant.decidedMicros, at: 6)
            try statement.bind(grant.decidedBy, at: 7)
            try statement.execute()
        }
    }

    /// Deletes the app's grant for `type`; returns the rows deleted (0 or 1).
    func remove(appID: String, type: ObjectType) throws(BrokerError) -> Int {
        try deleteOne.run { statement throws(BrokerError) in
            try statement.bind(appID, at: 1)
            try statement.bind(type.identifier, at: 2)
            try statement.execute()
            return Int(database.changedRowCount)
        }
    }

    /// Deletes every grant of the app; returns the rows deleted.
    func removeAll(appID: String) throws(BrokerError) -> Int {
        try deleteApp.run { statement throws(BrokerError) in
            try statement.bind(appID, at: 1)
            try statement.execute()
            return Int(database.changedRowCount)
        }
    }

    /// The stored `read` codes.
    private static let readDeny: Int64 = 1
    private static let readFull: Int64 = 2
    private static let readLimited: Int64 = 3

    /// Reads the current row (app_id, type, share, read, read_from_us, decided_us, decided_by).
    private static func decode(_ row: Statement) throws(BrokerError) -> Grant {
        let appID = row.string(at: 0)
        let type = ObjectType(row.string(at: 1))
        var share: ShareDecision?
        if let raw = row.optionalInt64(at: 2) {
            guard let code = Int32(exactly: raw), let decision = ShareDecision(rawValue: code) else {
                throw .internal("grant of app \"\(appID)\" for \(type) has an unknown stored share decision \(raw)")
            }
            share = decision
        }
        var read: ReadDecision?
        switch row.optionalInt64(at: 3) {
        case nil: read = nil
        case readDeny: read = .deny
        case readFull: read = .full
        case readLimited:
            guard let from = row.optionalInt64(at: 4) else {
                throw .internal("limited grant of app \"\(appID)\" for \(type) has no stored start date")
            }
            read = .limited(fromMicros: from)
        case let raw?:
            throw .internal("grant of app \"\(appID)\" for \(type) has an unknown stored read decision \(raw)")
        }
        return Grant(type: type, share: share, read: read, decidedMicros: row.int64(at: 5), decidedBy: row.string(at: 6))
    }
}
