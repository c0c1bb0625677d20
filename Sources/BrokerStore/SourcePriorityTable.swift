import BrokerModel

/// The `source_priorities` table: per type identifier, the source app ids the person ordered, best first.
///
/// App ids and type identifiers are kept as text (not codes): an app can be placed before it ever
/// stored a sample. Statistics of cumulative types merge overlapping sources by this order.
final class SourcePriorityTable {
    private let select: Statement
    private let selectPosition: Statement
    private let selectAll: Statement
    private let clear: Statement
    private let insert: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare("SELECT app_id FROM source_priorities WHERE type = ?1 ORDER BY position")
        // One seek of the (type, app_id) key: the place of one source, whatever else is listed.
        selectPosition = try database.prepare("SELECT position FROM source_priorities WHERE type = ?1 AND app_id = ?2")
        selectAll = try database.prepare("SELECT type, app_id FROM source_priorities ORDER BY type, position")
        clear = try database.prepare("DELETE FROM source_priorities WHERE type = ?1")
        insert = try database.prepare("INSERT INTO source_priorities (type, position, app_id) VALUES (?1, ?2, ?3)")
    }

    /// The ordered app ids of `type` (empty when none were set).
    func order(of type: String) throws(BrokerError) -> [String] {
        try select.run { statement throws(BrokerError) in
            try statement.bind(type, at: 1)
            var appIDs: [String] = []
            while try statement.step() { appIDs.append(statement.string(at: 0)) }
            return appIDs
        }
    }

    /// The place of `appID` in the order of `type` (0 first), or nil when it is not listed.
    func position(of appID: String, in type: String) throws(BrokerError) -> Int? {
        try selectPosition.run { statement throws(BrokerError) -> Int? in
            try statement.bind(type, at: 1)
            try statement.bind(appID, at: 2)
            return try statement.step() ? Int(statement.int64(at: 0)) : nil
        }
    }

    /// Every type's order, by type identifier.
    func all() throws(BrokerError) -> [(type: String, appIDs: [String])] {
        try selectAll.run { statement throws(BrokerError) in
            var rows: [(type: String, appIDs: [String])] = []
            while try statement.step() {
                let type = statement.string(at: 0)
                if rows.last?.type == type { rows[rows.count - 1].appIDs.append(statement.string(at: 1)) } else { rows.append((type, [statement.string(at: 1)])) }
            }
            return rows
        }
    }

    /// Replaces the order of `type` with `appIDs` (empty: no order); the caller holds a transaction.
    func replace(_ type: String, with appIDs: [String]) throws(BrokerError) {
        try clear.run { statement throws(BrokerError) in
            try statement.bind(type, at: 1)
            try statement.execute()
        }
        for (position, appID) in appIDs.enumerated() {
            try insert.run { statement throws(BrokerError) in
                try statement.bind(type, at: 1)
                try statement.bind(Int64(position), at: 2)
                try statement.bind(appID, at: 3)
                try statement.execute()
            }
        }
    }
}
