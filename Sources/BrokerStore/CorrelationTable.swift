import BrokerModel

/// The `correlations` and `correlation_members` tables (schema version 12): each correlation, in
/// its app's uuid namespace, and the links from its member rows in `samples` to it.
///
/// Reads of links go through the reading connection and only by the two scoped indexes: a member
/// type's links ending at or after a floor, or one app's own links of a type. Nothing here runs a
/// transaction of its own.
final class CorrelationTable {
    private let database: Database
    private let insert: Statement
    private let selectByUUID: Statement
    private let selectMemberUUIDs: Statement
    private let insertLink: Statement
    private let deleteRow: Statement
    private let deleteLinks: Statement
    private let selectOwnOfType: Statement
    private let visibleLinks: Statement
    private let ownLinks: Statement
    private let selectBySequence: Statement
    private let selectMemberPoints: Statement
    private let insertTombstoneMember: Statement
    private let visibleTombstones: Statement
    private let ownTombstones: Statement
    private let selectTombstone: Statement
    private let selectPrunedMembers: Statement
    private let deletePrunedMembers: Statement
    private let exportRows: Statement
    private let selectAllMembers: Statement
    private let selectMembersBetween: Statement
    private let selectHolder: Statement

    /// A stored correlation row (no members).
    struct Row {
        let sequence: Int64
        let uuid: String
        let typeCode: Int64
        let startMicros: Int64
        let endMicros: Int64
        let metadata: [String: String]
        let appCode: Int64
        let createdMicros: Int64
        /// Its position in the change sequence (schema version 14): where an anchored query of its
        /// type finds it added.
        let changeSequence: Int64
    }

    /// A deleted correlation as its tombstone remembers it.
    struct Tombstone {
        let uuid: String
        let typeCode: Int64
        let startMicros: Int64
        let endMicros: Int64
        let appCode: Int64
    }

    /// The columns `decode(_:)` reads, in order.
    private static let columns = "seq, uuid, type, start_us, end_us, metadata, app, created_us, change_seq"

    /// Prepares the statements: writes and the writer's look-ups on `database`, reads on `reader`.
    init(database: Database, reader: Database) throws(BrokerError) {
        self.database = database
        insert = try database.prepare("""
            INSERT INTO correlations (app, uuid, type, start_us, end_us, metadata, created_us, change_seq, object_count)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (app, uuid) DO NOTHING
            """)
        selectByUUID = try database.prepare("SELECT \(Self.columns) FROM correlations WHERE app = ?1 AND uuid = ?2")
        selectMemberUUIDs = try database.prepare("""
            SELECT s.uuid FROM correlation_members AS m JOIN samples AS s ON s.seq = m.member
            WHERE m.correlation = ?1 ORDER BY m.member
            """)
        insertLink = try database.prepare(
            "INSERT INTO correlation_members (member, correlation, type, app, end_us) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (member) DO NOTHING")
        deleteRow = try database.prepare("DELETE FROM correlations WHERE seq = ?1")
        deleteLinks = try database.prepare("DELETE FROM correlation_members WHERE correlation = ?1")
        selectOwnOfType = try database.prepare("""
            SELECT \(Self.columns) FROM correlations INDEXED BY correlations_by_app_type_start
            WHERE app = ?1 AND type = ?2 ORDER BY start_us, seq
            """)
        // ?1 member type code, ?2 the floor: only links the reader may see are read.
        visibleLinks = try reader.prepare("""
            SELECT correlation, member FROM correlation_members INDEXED BY correlation_members_by_type_end
            WHERE type = ?1 AND end_us >= ?2
            """)
        // ?1 app code, ?2 member type code: the app's own links only.
        ownLinks = try reader.prepare("""
            SELECT correlation, member FROM correlation_members INDEXED BY correlation_members_by_app_type
            WHERE app = ?1 AND type = ?2
            """)
        selectBySequence = try reader.prepare("SELECT \(Self.columns) FROM correlations WHERE seq = ?1")
        selectMemberPoints = try database.prepare("SELECT type, app, end_us FROM correlation_members WHERE correlation = ?1 ORDER BY member")
        insertTombstoneMember = try database.prepare(
            "INSERT INTO correlation_tombstone_members (seq, type, app, end_us) VALUES (?1, ?2, ?3, ?4)")
        // ?1 member type code, ?2 the floor, ?3 ?4 the seq range (after, through]: the deletions of
        // correlations holding an object the reader could see, by the same two scoped indexes as links.
        visibleTombstones = try reader.prepare("""
            SELECT DISTINCT seq FROM correlation_tombstone_members INDEXED BY correlation_tombstone_members_by_type_end
            WHERE type = ?1 AND end_us >= ?2 AND +seq > ?3 AND +seq <= ?4
            """)
        ownTombstones = try reader.prepare("""
            SELECT DISTINCT seq FROM correlation_tombstone_members INDEXED BY correlation_tombstone_members_by_app_type
            WHERE app = ?1 AND type = ?2 AND seq > ?3 AND seq <= ?4
            """)
        selectTombstone = try reader.prepare("SELECT uuid, type, start_us, end_us, app FROM tombstones WHERE seq = ?1")
        selectPrunedMembers = try database.prepare("""
            SELECT m.type, m.app, m.end_us, m.seq FROM tombstones AS t
            JOIN correlation_tombstone_members AS m INDEXED BY correlation_tombstone_members_by_seq ON m.seq = t.seq
            WHERE t.deleted_us < ?1
            """)
        deletePrunedMembers = try database.prepare(
            "DELETE FROM correlation_tombstone_members WHERE seq IN (SELECT seq FROM tombstones WHERE deleted_us < ?1)")
        // Export (the person's own view): ?1 after seq, ?2 limit, ?3 type code or NULL, ?4 app code or NULL.
        exportRows = try reader.prepare("""
            SELECT \(Self.columns) FROM correlations
            WHERE seq > ?1 AND (?3 IS NULL OR type = ?3) AND (?4 IS NULL OR app = ?4)
            ORDER BY seq LIMIT ?2
            """)
        selectAllMembers = try reader.prepare("SELECT member FROM correlation_members WHERE correlation = ?1 ORDER BY member")
        selectMembersBetween = try reader.prepare("SELECT member FROM correlation_members WHERE member BETWEEN ?1 AND ?2")
        // On the writer: inside a delete's transaction, after the correlations it has removed already.
        selectHolder = try database.prepare(
            "SELECT \(Self.columns) FROM correlations WHERE seq = (SELECT correlation FROM correlation_members WHERE member = ?1)")
    }

    /// Inserts a correlation row; its seq, or nil when the app already holds `uuid` (nothing written).
    ///
    /// `objectCount` is how many objects it is saved with (schema version 15): the links can only
    /// lose rows, so a correlation holding fewer than its count has lost an object.
    func add(uuid: String, typeCode: Int64, startMicros: Int64, endMicros: Int64, metadata: String, appCode: Int64, now: Int64, changeSequence: Int64, objectCount: Int) throws(BrokerError) -> Int64? {
        try insert.run { statement throws(BrokerError) -> Int64? in
            try statement.bind(appCode, at: 1)
            try statement.bind(storedUUID: uuid, at: 2)
            try statement.bind(typeCode, at: 3)
            try statement.bind(startMicros, at: 4)
            try statement.bind(endMicros, at: 5)
            try statement.bind(metadata == MetadataText.empty ? nil : metadata, at: 6)
            try statement.bind(now, at: 7)
            try statement.bind(changeSequence, at: 8)
            try statement.bind(Int64(objectCount), at: 9)
            try statement.execute()
            guard database.changedRowCount == 1 else { return nil }
            // seq is the table's rowid: the row just inserted, no lookup by uuid.
            return database.lastInsertedRowID
        }
    }

    /// The correlation the app with `appCode` holds under `uuid`, or nil.
    func row(appCode: Int64, uuid: String) throws(BrokerError) -> Row? {
        try selectByUUID.run { statement throws(BrokerError) -> Row? in
            try statement.bind(appCode, at: 1)
            try statement.bind(storedUUID: uuid, at: 2)
            return try statement.step() ? try Self.decode(statement) : nil
        }
    }

    /// The uuids of the member samples still linked to correlation `sequence`, in save order.
    func memberUUIDs(of sequence: Int64) throws(BrokerError) -> [String] {
        try selectMemberUUIDs.run { statement throws(BrokerError) -> [String] in
            try statement.bind(sequence, at: 1)
            var uuids: [String] = []
            while try statement.step() { uuids.append(statement.storedUUID(at: 0)) }
            return uuids
        }
    }

    /// Links member row `member` (of `typeCode`, by `appCode`, ending at `endMicros`) to correlation
    /// `correlation`; false (nothing written) when the row already belongs to a correlation.
    func link(member: Int64, to correlation: Int64, typeCode: Int64, appCode: Int64, endMicros: Int64) throws(BrokerError) -> Bool {
        try insertLink.run { statement throws(BrokerError) -> Bool in
            try statement.bind(member, at: 1)
            try statement.bind(correlation, at: 2)
            try statement.bind(typeCode, at: 3)
            try statement.bind(appCode, at: 4)
            try statement.bind(endMicros, at: 5)
            try statement.execute()
            return database.changedRowCount == 1
        }
    }

    /// Deletes correlation `sequence` and its links (its member samples stay), remembering under
    /// tombstone `tombstone` the type, source app and end of each object it still held.
    /// Returns those (member type code, app code, end).
    @discardableResult
    func remove(sequence: Int64, tombstone: Int64) throws(BrokerError) -> [(type: Int64, app: Int64, end: Int64)] {
        let points = try selectMemberPoints.run { statement throws(BrokerError) -> [(type: Int64, app: Int64, end: Int64)] in
            try statement.bind(sequence, at: 1)
            var points: [(type: Int64, app: Int64, end: Int64)] = []
            while try statement.step() { points.append((statement.int64(at: 0), statement.int64(at: 1), statement.int64(at: 2))) }
            return points
        }
        for point in points {
            try insertTombstoneMember.run { statement throws(BrokerError) in
                try statement.bind(tombstone, at: 1)
                try statement.bind(point.type, at: 2)
                try statement.bind(point.app, at: 3)
                try statement.bind(point.end, at: 4)
                try statement.execute()
            }
        }
        try deleteLinks.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            try statement.execute()
        }
        try deleteRow.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            try statement.execute()
        }
        return points
    }

    /// Every correlation of `typeCode` the app with `appCode` holds, by start.
    func own(appCode: Int64, typeCode: Int64) throws(BrokerError) -> [Row] {
        try selectOwnOfType.run { statement throws(BrokerError) -> [Row] in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            var rows: [Row] = []
            while try statement.step() { rows.append(try Self.decode(statement)) }
            return rows
        }
    }

    /// (correlation, member) links of member type `typeCode` ending at or after `floor`.
    func links(typeCode: Int64, endingAtOrAfter floor: Int64) throws(BrokerError) -> [(correlation: Int64, member: Int64)] {
        try visibleLinks.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(floor, at: 2)
            return try Self.links(statement)
        }
    }

    /// (correlation, member) links of member type `typeCode` saved by the app with `appCode`.
    func links(typeCode: Int64, appCode: Int64) throws(BrokerError) -> [(correlation: Int64, member: Int64)] {
        try ownLinks.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            return try Self.links(statement)
        }
    }

    /// The correlation row `sequence` (read through the reading connection), or nil.
    func row(sequence: Int64) throws(BrokerError) -> Row? {
        try selectBySequence.run { statement throws(BrokerError) -> Row? in
            try statement.bind(sequence, at: 1)
            return try statement.step() ? try Self.decode(statement) : nil
        }
    }

    /// Seqs of correlation tombstones in (after, through] holding an object of member type
    /// `typeCode` ending at or after `floor`.
    func tombstones(typeCode: Int64, endingAtOrAfter floor: Int64, after: Int64, through: Int64) throws(BrokerError) -> [Int64] {
        try visibleTombstones.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try statement.bind(floor, at: 2)
            try statement.bind(after, at: 3)
            try statement.bind(through, at: 4)
            return try Self.sequences(statement)
        }
    }

    /// Seqs of the app's own correlation tombstones in (after, through] holding an object of member type `typeCode`.
    func tombstones(typeCode: Int64, appCode: Int64, after: Int64, through: Int64) throws(BrokerError) -> [Int64] {
        try ownTombstones.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            try statement.bind(after, at: 3)
            try statement.bind(through, at: 4)
            return try Self.sequences(statement)
        }
    }

    /// The tombstone numbered `sequence`, or nil (pruned).
    func tombstone(sequence: Int64) throws(BrokerError) -> Tombstone? {
        try selectTombstone.run { statement throws(BrokerError) -> Tombstone? in
            try statement.bind(sequence, at: 1)
            guard try statement.step() else { return nil }
            return Tombstone(
                uuid: statement.storedUUID(at: 0), typeCode: statement.int64(at: 1), startMicros: statement.int64(at: 2),
                endMicros: statement.int64(at: 3), appCode: statement.int64(at: 4))
        }
    }

    /// Forgets the member points of correlation tombstones deleted before `before` (inside the
    /// caller's transaction, before the tombstones go); returns them per (member type, app) as
    /// (end, seq) points for `correlation_prune_marks`.
    func prune(deletedBefore before: Int64) throws(BrokerError) -> [TombstoneTable.PrunedKey: [(end: Int64, sequence: Int64)]] {
        let points = try selectPrunedMembers.run { statement throws(BrokerError) -> [TombstoneTable.PrunedKey: [(end: Int64, sequence: Int64)]] in
            try statement.bind(before, at: 1)
            var points: [TombstoneTable.PrunedKey: [(end: Int64, sequence: Int64)]] = [:]
            while try statement.step() {
                points[TombstoneTable.PrunedKey(typeCode: statement.int64(at: 0), appCode: statement.int64(at: 1)), default: []]
                    .append((statement.int64(at: 2), statement.int64(at: 3)))
            }
            return points
        }
        guard !points.isEmpty else { return [:] }
        try deletePrunedMembers.run { statement throws(BrokerError) in
            try statement.bind(before, at: 1)
            try statement.execute()
        }
        return points
    }

    /// Up to `limit` correlations after seq `after` (of `typeCode`, of `appCode` when given), by seq: for export.
    func export(after: Int64, limit: Int, typeCode: Int64?, appCode: Int64?) throws(BrokerError) -> [Row] {
        try exportRows.run { statement throws(BrokerError) -> [Row] in
            try statement.bind(after, at: 1)
            try statement.bind(Int64(limit), at: 2)
            try statement.bind(typeCode, at: 3)
            try statement.bind(appCode, at: 4)
            var rows: [Row] = []
            while try statement.step() { rows.append(try Self.decode(statement)) }
            return rows
        }
    }

    /// Every member row (seq in `samples`) still linked to correlation `sequence`.
    func members(of sequence: Int64) throws(BrokerError) -> Set<Int64> {
        try selectAllMembers.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            return Set(try Self.sequences(statement))
        }
    }

    /// The correlation holding sample row `member` as one of its objects, or nil (read on the writer).
    func holder(ofMember member: Int64) throws(BrokerError) -> Row? {
        try selectHolder.run { statement throws(BrokerError) -> Row? in
            try statement.bind(member, at: 1)
            return try statement.step() ? try Self.decode(statement) : nil
        }
    }

    /// The sample rows with seq in [lower, upper] that are objects of a correlation.
    func members(between lower: Int64, and upper: Int64) throws(BrokerError) -> Set<Int64> {
        try selectMembersBetween.run { statement throws(BrokerError) in
            try statement.bind(lower, at: 1)
            try statement.bind(upper, at: 2)
            return Set(try Self.sequences(statement))
        }
    }

    private static func sequences(_ statement: Statement) throws(BrokerError) -> [Int64] {
        var sequences: [Int64] = []
        while try statement.step() { sequences.append(statement.int64(at: 0)) }
        return sequences
    }

    private static func links(_ statement: Statement) throws(BrokerError) -> [(correlation: Int64, member: Int64)] {
        var links: [(correlation: Int64, member: Int64)] = []
        while try statement.step() { links.append((statement.int64(at: 0), statement.int64(at: 1))) }
        return links
    }

    private static func decode(_ row: Statement) throws(BrokerError) -> Row {
        Row(
            sequence: row.int64(at: 0), uuid: row.storedUUID(at: 1), typeCode: row.int64(at: 2),
            startMicros: row.int64(at: 3), endMicros: row.int64(at: 4),
            metadata: row.isNull(at: 5) ? [:] : try MetadataText.decode(row.string(at: 5)),
            appCode: row.int64(at: 6), createdMicros: row.int64(at: 7), changeSequence: row.int64(at: 8))
    }
}
