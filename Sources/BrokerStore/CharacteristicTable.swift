import BrokerModel

/// The `characteristics` table: the person's date of birth, biological sex, blood type and the like.
final class CharacteristicTable {
    private let upsert: Statement
    private let delete: Statement
    private let selectAll: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        upsert = try database.prepare("""
            INSERT INTO characteristics (type, value, updated_us) VALUES (?1, ?2, ?3)
            ON CONFLICT (type) DO UPDATE SET value = excluded.value, updated_us = excluded.updated_us
            """)
        delete = try database.prepare("DELETE FROM characteristics WHERE type = ?1")
        selectAll = try database.prepare("SELECT type, value FROM characteristics")
    }

    /// Stores `value` for `type` (replacing any previous one), or deletes it when `value` is nil.
    func set(_ type: ObjectType, value: String?, now: Int64) throws(BrokerError) {
        guard let value else {
            return try delete.run { statement throws(BrokerError) in
                try statement.bind(type.identifier, at: 1)
                try statement.execute()
            }
        }
        try upsert.run { statement throws(BrokerError) in
            try statement.bind(type.identifier, at: 1)
            try statement.bind(value, at: 2)
            try statement.bind(now, at: 3)
            try statement.execute()
        }
    }

    /// Every stored value, by type.
    func all() throws(BrokerError) -> [ObjectType: String] {
        try selectAll.run { statement throws(BrokerError) in
            var values: [ObjectType: String] = [:]
            while try statement.step() {
                values[ObjectType(statement.string(at: 0))] = statement.string(at: 1)
            }
            return values
        }
    }
}
