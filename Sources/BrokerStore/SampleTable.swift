import BrokerModel

/// The `samples` table: every stored sample, its prepared statements and row mapping.
///
/// The methods here run no transactions of their own: `BrokerStore` wraps multi-row writes.
/// Every read that filters by date takes a predicate and a `ScopeFilter`, and reads only what the scope shows.
final class SampleTable {
    private let database: Database
    /// Type identifier ↔ the code stored in `samples.type`.
    let types: NameCodeTable
    /// Source app id ↔ the code stored in `samples.app`.
    let apps: NameCodeTable
    /// The `ObjectType` of each type code read so far (building one from its identifier looks it up in the catalogue).
    private var objectTypes: [Int64: ObjectType] = [:]
    private let insert: Statement
    /// One multi-row INSERT per size of `chunkSizes`, in the same order (`addChunk`).
    private let insertChunks: [Statement]
    private let selectByUUID: Statement
    /// One row by seq, through the reading connection (a correlation's members).
    private let selectBySequence: Statement
    private let locateByUUID: Statement
    private let selectOwnMatching: Statement
    private let deleteRow: Statement
    private let pages: [SampleSort: Statement]
    /// The page statements for quantity types (`quantityColumns`), by sort.
    private let quantityPages: [SampleSort: Statement]
    /// The own-sample page statements (`ownPageSQL`), all columns then quantity columns, by sort.
    private let ownPages: [SampleSort: Statement]
    private let ownQuantityPages: [SampleSort: Statement]
    private let selectAdded: Statement
    /// An app's own added rows, by seq (`samples_by_app_type_seq`).
    private let selectOwnAdded: Statement
    /// Added rows ending at or after a floor, by seq (`samples_by_type_end`: no row ending before it is read).
    private let selectVisibleAdded: Statement
    /// Samples that start before a floor and end at or after it, in start order (`straddlingPageSQL`), all columns then quantity columns.
    private let straddlingPages: [SampleSort: Statement]
    private let straddlingQuantityPages: [SampleSort: Statement]
    private let ownAggregate: Statement
    /// Whether any quantity row lies in a statistics range, by the start index (`anyInRange`) or an app's own (`anyOwnInRange`).
    private let anyInRange: Statement
    let anyOwnInRange: Statement
    /// The first app in start order with a quantity row in a range other than a given one (`firstOtherApp`).
    let firstOtherAppInRange: Statement
    /// Rows (start_us, end_us, quantity, app) for a merge of sources: every app's by the start index,
    /// one app's own by its own index, those straddling a floor by the end index.
    let mergeRows: Statement
    let ownMergeRows: Statement
    let straddlingMergeRows: Statement
    private let straddlingQuantities: Statement
    private let exportAll: Statement
    private let exportType: Statement
    private let exportApp: Statement
    private let exportTypeApp: Statement
    private let aggregate: Statement
    /// The hour rollups (kept by `BrokerStore` on save and delete).
    let rollups: HourRollupTable
    /// Whether statistics read the rollups (`RollupMode.reads`).
    var readsRollups: Bool
    /// `piecesSQL` over every app's rows and over one app's own (`ownPiecesSQL`).
    let pieces: Statement
    let ownPieces: Statement

    /// The columns every sample SELECT reads, in `decode(_:)` order.
    static let columns = """
        seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, activity, duration_us, \
        energy_kcal, distance_m, metadata, app, created_us
        """

    /// A batch's rows to insert, side by side: each sample, its canonical content and its type's code.
    struct NewRows {
        let samples: [Sample]
        let contents: [SampleContent]
        let typeCodes: [Int64]
    }

    /// Rows per multi-row INSERT, largest first: a save takes 200 rows at a time, then 50 at a time
    /// for what is left (or for a 200-row chunk that held a uuid already stored), then single rows.
    /// 200 × 16 parameters is far under SQLite's limit of 32,766. 200 rather than 50 alone cut the
    /// broker's CPU per saved sample by 4–5% (fewer statements and savepoints; SCENARIOS.md).
    static let chunkSizes = [200, 50]

    /// The values each inserted row binds.
    static let insertColumnCount = 16

    /// `INSERT … VALUES (…), (…), … ON CONFLICT (app, uuid) DO NOTHING` for `rows` rows; a uuid the
    /// app already stored inserts nothing (another app's uuid is another sample) (the caller then compares contents): no SELECT per new row.
    static func insertSQL(rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: insertColumnCount).joined(separator: ", ") + ")"
        return """
            INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, activity,
                                 duration_us, energy_kcal, distance_m, metadata, app, created_us)
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            ON CONFLICT (app, uuid) DO NOTHING
            """
    }

    /// The columns `locate` reads, in `decodeLocation(_:)` order.
    private static let locationColumns = "seq, uuid, type, start_us, end_us, app"

    /// The SQL of one page in `sort` order.
    ///
    /// Parameters: ?1 type code; ?2 … ?5 `SampleBounds`; ?6, ?7 the cursor's sort value and seq
    /// (seq NULL on the first page); ?8 the row limit. There is no scope filter: `page` cuts the
    /// bounds to what the scope shows and reads the app's own older samples separately. The caller
    /// moves the sort date's bound to the cursor value, so `(date, seq)` past the cursor reduces to
    /// the OR below. Ties between equal dates go by seq, in the same direction as the date: every
    /// index entry ends with the rowid (seq), so the sort date's index yields (date, seq) order. The
    /// other date carries a unary `+`, so the only index the planner can use is the sort date's: a
    /// range scan in the requested order, no sort step.
    static func pageSQL(_ sort: SampleSort, columns: String = columns) -> String {
        let (date, other) = sort.key == .startDate ? ("start_us", "+end_us") : ("end_us", "+start_us")
        let (past, direction) = sort.descending ? ("<", "DESC") : (">", "ASC")
        let (startColumn, endColumn) = sort.key == .startDate ? (date, other) : (other, date)
        return """
            SELECT \(columns) FROM samples
            WHERE type = ?1 AND \(startColumn) BETWEEN ?2 AND ?3 AND \(endColumn) BETWEEN ?4 AND ?5
              AND (?7 IS NULL OR \(date) \(past) ?6 OR seq \(past) ?7)
            ORDER BY \(date) \(direction), seq \(direction)
            LIMIT ?8
            """
    }

    /// The SQL of one page of an app's own samples in `sort` order (the `samples_by_app_type_start` index).
    ///
    /// Parameters as `pageSQL`'s (?1 type code; ?2 … ?5 `SampleBounds`; ?6, ?7 the cursor; ?8 the
    /// row limit), then ?9 the app code; the same (date, seq) order. In start order the index yields
    /// the rows in order; in end order SQLite sorts the app's own rows in range.
    static func ownPageSQL(_ sort: SampleSort, columns: String = columns) -> String {
        let date = sort.key == .startDate ? "start_us" : "end_us"
        let (past, direction) = sort.descending ? ("<", "DESC") : (">", "ASC")
        // INDEXED BY: in end order the planner would rather walk every app's rows through the end
        // index than sort the own ones.
        return """
            SELECT \(columns) FROM samples INDEXED BY samples_by_app_type_start
            WHERE app = ?9 AND type = ?1 AND start_us BETWEEN ?2 AND ?3 AND +end_us BETWEEN ?4 AND ?5
              AND (?7 IS NULL OR \(date) \(past) ?6 OR seq \(past) ?7)
            ORDER BY \(date) \(direction), seq \(direction)
            LIMIT ?8
            """
    }

    /// The columns a page of a quantity type reads, in `decodeQuantity(_:type:)` order: 9 of the 16,
    /// as SQLite's cost per row grows with every column it extracts. Like `columns`, seq comes first.
    /// No value_kind: a quantity row always has a unit and other kinds never do, so `decodeQuantity`
    /// checks the unit instead (one column fewer on every row of the largest reads).
    static let quantityColumns = "seq, uuid, start_us, end_us, quantity, unit, metadata, app, created_us"

    /// Every sort order.
    static let sorts: [SampleSort] = [
        SampleSort(key: .startDate, descending: false), SampleSort(key: .startDate, descending: true),
        SampleSort(key: .endDate, descending: false), SampleSort(key: .endDate, descending: true),
    ]

    /// The statistics SQL: one row (lo, hi, count, sum, avg, min, max) per bucket with samples.
    ///
    /// Parameters: ?1 the boundaries as a JSON array of integers (ascending); ?2 type code; ?3 … ?6
    /// `SampleBounds`. No scope filter: it reads every app's rows, for full access or for the part of a
    /// floor's read that starts at or after the floor (`statistics`). Each bucket [b_i, b_i+1) is clipped to the start
    /// range, and for each one (CROSS JOIN keeps buckets outside) the (type, start_us) index is
    /// searched for the samples starting in it.
    static let statisticsSQL = """
        WITH bucket (i, lo, hi) AS (
            SELECT key, value, lead(value) OVER (ORDER BY key) FROM json_each(?1)
        ), clipped (i, lo, hi, first_us, last_us) AS (
            SELECT i, lo, hi, max(lo, ?3), min(hi - 1, ?4) FROM bucket WHERE hi IS NOT NULL
        )
        SELECT clipped.lo, clipped.hi, count(*), sum(s.quantity), avg(s.quantity), min(s.quantity), max(s.quantity)
        FROM clipped CROSS JOIN samples AS s
        WHERE s.type = ?2 AND s.start_us BETWEEN clipped.first_us AND clipped.last_us
          AND +s.end_us BETWEEN ?5 AND ?6
          AND +s.value_kind = 1
        GROUP BY clipped.i
        ORDER BY clipped.i
        """

    /// `statisticsSQL` over one app's own samples (`samples_by_app_type_start`): ?1 … ?6 as there, ?7 the app code.
    static let ownStatisticsSQL = """
        WITH bucket (i, lo, hi) AS (
            SELECT key, value, lead(value) OVER (ORDER BY key) FROM json_each(?1)
        ), clipped (i, lo, hi, first_us, last_us) AS (
            SELECT i, lo, hi, max(lo, ?3), min(hi - 1, ?4) FROM bucket WHERE hi IS NOT NULL
        )
        SELECT clipped.lo, clipped.hi, count(*), sum(s.quantity), avg(s.quantity), min(s.quantity), max(s.quantity)
        FROM clipped CROSS JOIN samples AS s INDEXED BY samples_by_app_type_start
        WHERE s.app = ?7 AND s.type = ?2 AND s.start_us BETWEEN clipped.first_us AND clipped.last_us
          AND +s.end_us BETWEEN ?5 AND ?6
          AND +s.value_kind = 1
        GROUP BY clipped.i
        ORDER BY clipped.i
        """

    /// The SQL of one page, in start order, of the samples that start before a floor and end at or after it.
    ///
    /// Parameters as `pageSQL`'s, with the bounds already cut to straddle the floor (`SampleBounds.straddling`).
    /// The scan is the end-date range (from the floor to the floor plus the type's longest span), so
    /// it reads only rows the reader may see; SQLite sorts them by start date. A limited reader's
    /// start-order query reads these beside the samples starting at or after its floor, instead of
    /// walking the start-date index back from floor − span through rows it may not see.
    static func straddlingPageSQL(_ sort: SampleSort, columns: String = columns) -> String {
        let (past, direction) = sort.descending ? ("<", "DESC") : (">", "ASC")
        return """
            SELECT \(columns) FROM samples INDEXED BY samples_by_type_end
            WHERE type = ?1 AND +start_us BETWEEN ?2 AND ?3 AND end_us BETWEEN ?4 AND ?5
              AND (?7 IS NULL OR start_us \(past) ?6 OR seq \(past) ?7)
            ORDER BY start_us \(direction), seq \(direction)
            LIMIT ?8
            """
    }

    /// Prepares the table's statements on `database`, the query pages' on `reader`.
    ///
    /// `reader` is a second connection to the same file with a small page cache: a long query's
    /// pages pass through it without filling the writer's large cache, so the broker's memory does
    /// not grow with the size of what it streams.
    init(database: Database, reader: Database, readsRollups: Bool = true) throws(BrokerError) {
        self.database = database
        rollups = try HourRollupTable(database: database)
        self.readsRollups = readsRollups
        pieces = try database.prepare(Self.piecesSQL)
        ownPieces = try database.prepare(Self.ownPiecesSQL)
        types = try NameCodeTable(database: database, table: "type_codes", column: "identifier")
        apps = try NameCodeTable(database: database, table: "app_codes", column: "app_id")
        insert = try database.prepare(Self.insertSQL(rows: 1))
        var chunks: [Statement] = []
        for size in Self.chunkSizes { chunks.append(try database.prepare(Self.insertSQL(rows: size))) }
        insertChunks = chunks
        selectByUUID = try database.prepare("SELECT \(Self.columns) FROM samples WHERE app = ?1 AND uuid = ?2")
        selectBySequence = try reader.prepare("SELECT \(Self.columns) FROM samples WHERE seq = ?1")
        locateByUUID = try database.prepare("SELECT \(Self.locationColumns) FROM samples WHERE app = ?1 AND uuid = ?2")
        // INDEXED BY: otherwise the planner walks every app's rows through the end-date index.
        selectOwnMatching = try database.prepare("""
            SELECT \(Self.locationColumns) FROM samples INDEXED BY samples_by_app_type_start
            WHERE app = ?1 AND type = ?2 AND start_us BETWEEN ?3 AND ?4 AND +end_us BETWEEN ?5 AND ?6
            ORDER BY seq
            """)
        deleteRow = try database.prepare("DELETE FROM samples WHERE seq = ?1")
        var pages: [SampleSort: Statement] = [:]
        for sort in Self.sorts {
            pages[sort] = try reader.prepare(Self.pageSQL(sort))
        }
        self.pages = pages
        var quantityPages: [SampleSort: Statement] = [:]
        for sort in Self.sorts {
            quantityPages[sort] = try reader.prepare(Self.pageSQL(sort, columns: Self.quantityColumns))
        }
        self.quantityPages = quantityPages
        var ownPages: [SampleSort: Statement] = [:]
        var ownQuantityPages: [SampleSort: Statement] = [:]
        for sort in Self.sorts {
            ownPages[sort] = try reader.prepare(Self.ownPageSQL(sort))
            ownQuantityPages[sort] = try reader.prepare(Self.ownPageSQL(sort, columns: Self.quantityColumns))
        }
        self.ownPages = ownPages
        self.ownQuantityPages = ownQuantityPages
        var straddlingPages: [SampleSort: Statement] = [:]
        var straddlingQuantityPages: [SampleSort: Statement] = [:]
        for sort in Self.sorts where sort.key == .startDate {
            straddlingPages[sort] = try reader.prepare(Self.straddlingPageSQL(sort))
            straddlingQuantityPages[sort] = try reader.prepare(Self.straddlingPageSQL(sort, columns: Self.quantityColumns))
        }
        self.straddlingPages = straddlingPages
        self.straddlingQuantityPages = straddlingQuantityPages
        // Full access: the scan is by (type, seq) (the samples_by_type_seq index); dates only filter.
        // Parameters: ?1 type code; ?2, ?3 the seq range (after, through]; ?4 … ?7 `SampleBounds`;
        // ?10 the row limit (?8 and ?9 are the other added statements' own).
        selectAdded = try database.prepare("""
            SELECT \(Self.columns) FROM samples
            WHERE type = ?1 AND seq > ?2 AND seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5 AND +end_us BETWEEN ?6 AND ?7
            ORDER BY seq LIMIT ?10
            """)
        // Parameters as selectAdded's; ?8 is unused. Only the reading app's rows are read.
        selectOwnAdded = try database.prepare("""
            SELECT \(Self.columns) FROM samples INDEXED BY samples_by_app_type_seq
            WHERE app = ?9 AND type = ?1 AND seq > ?2 AND seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5 AND +end_us BETWEEN ?6 AND ?7
            ORDER BY seq LIMIT ?10
            """)
        // Parameters as selectAdded's, with ?6 already at or above the floor; ?8, ?9 are unused. The
        // scan is the end-date range, so every row it reads is one the reader may see; the seq
        // order costs a sort of those rows.
        selectVisibleAdded = try database.prepare("""
            SELECT \(Self.columns) FROM samples INDEXED BY samples_by_type_end
            WHERE type = ?1 AND end_us BETWEEN ?6 AND ?7 AND +seq > ?2 AND +seq <= ?3
              AND +start_us BETWEEN ?4 AND ?5
            ORDER BY seq LIMIT ?10
            """)
        // Export: ?1 after, ?2 limit, ?3 type, ?4 app; each variant keeps to an index ordered by seq.
        exportAll = try database.prepare("SELECT \(Self.columns) FROM samples WHERE seq > ?1 ORDER BY seq LIMIT ?2")
        exportType = try database.prepare(
            "SELECT \(Self.columns) FROM samples WHERE type = ?3 AND seq > ?1 ORDER BY seq LIMIT ?2")
        exportApp = try database.prepare(
            "SELECT \(Self.columns) FROM samples WHERE +app = ?4 AND seq > ?1 ORDER BY seq LIMIT ?2")
        exportTypeApp = try database.prepare(
            "SELECT \(Self.columns) FROM samples WHERE type = ?3 AND +app = ?4 AND seq > ?1 ORDER BY seq LIMIT ?2")
        aggregate = try database.prepare(Self.statisticsSQL)
        ownAggregate = try database.prepare(Self.ownStatisticsSQL)
        // ?2 type code; ?3 … ?6 `SampleBounds`; ?7 the app code (own only). One seek: a range with
        // nothing in it costs that, not a seek per bucket (ranges a reader holds nothing in are
        // what a probing app would ask about).
        anyInRange = try database.prepare("""
            SELECT 1 FROM samples INDEXED BY samples_by_type_start
            WHERE type = ?2 AND start_us BETWEEN ?3 AND ?4 AND +end_us BETWEEN ?5 AND ?6 AND +value_kind = 1 LIMIT 1
            """)
        anyOwnInRange = try database.prepare("""
            SELECT 1 FROM samples INDEXED BY samples_by_app_type_start
            WHERE app = ?7 AND type = ?2 AND start_us BETWEEN ?3 AND ?4 AND +end_us BETWEEN ?5 AND ?6 AND +value_kind = 1 LIMIT 1
            """)
        // ?1 type code; ?2 … ?5 `SampleBounds`; ?6 the app to pass over (NULL: none).
        firstOtherAppInRange = try database.prepare("""
            SELECT app FROM samples INDEXED BY samples_by_type_start
            WHERE type = ?1 AND start_us BETWEEN ?2 AND ?3 AND +end_us BETWEEN ?4 AND ?5 AND +value_kind = 1
              AND +app IS NOT ?6
            LIMIT 1
            """)
        // ?1 type code; ?2 … ?5 `SampleBounds`; ?6 the app code (own only).
        mergeRows = try database.prepare("""
            SELECT start_us, end_us, quantity, app FROM samples INDEXED BY samples_by_type_start
            WHERE type = ?1 AND start_us BETWEEN ?2 AND ?3 AND +end_us BETWEEN ?4 AND ?5 AND +value_kind = 1
            """)
        ownMergeRows = try database.prepare("""
            SELECT start_us, end_us, quantity, app FROM samples INDEXED BY samples_by_app_type_start
            WHERE app = ?6 AND type = ?1 AND start_us BETWEEN ?2 AND ?3 AND +end_us BETWEEN ?4 AND ?5 AND +value_kind = 1
            """)
        straddlingMergeRows = try database.prepare("""
            SELECT start_us, end_us, quantity, app FROM samples INDEXED BY samples_by_type_end
            WHERE type = ?1 AND +start_us BETWEEN ?2 AND ?3 AND end_us BETWEEN ?4 AND ?5 AND +value_kind = 1
            """)
        // ?1 type code; ?2 … ?5 `SampleBounds` (already cut to straddle the floor): the end-date range
        // is the scan, so no row ending before the floor is read.
        straddlingQuantities = try database.prepare("""
            SELECT start_us, quantity FROM samples INDEXED BY samples_by_type_end
            WHERE type = ?1 AND +start_us BETWEEN ?2 AND ?3 AND end_us BETWEEN ?4 AND ?5 AND +value_kind = 1
            """)
    }

    /// Inserts row `index` of `rows` for the app with `appCode` as change `sequence`; false (and
    /// nothing written) when its uuid is already stored.
    func add(_ rows: NewRows, at index: Int, appCode: Int64, sequence: Int64, now: Int64) throws(BrokerError) -> Bool {
        try insert.run { statement throws(BrokerError) -> Bool in
            try Self.bind(rows, at: index, appCode: appCode, sequence: sequence, now: now, to: statement, from: 1)
            try statement.execute()
            return database.changedRowCount == 1
        }
    }

    /// Inserts rows `range` of `rows` (as many as one of `chunkSizes`) in one statement as changes
    /// `firstSequence`, `firstSequence + 1`, …; returns how many went in. A uuid already stored (or
    /// repeated in the chunk) is skipped and leaves its seq unused, so a caller that gets fewer than
    /// all rolls the chunk back and adds its rows in smaller chunks, then one by one. One statement for many rows saves
    /// SQLite opening and closing a cursor on the table and each index per row.
    func addChunk(_ rows: NewRows, range: Range<Int>, appCode: Int64, firstSequence: Int64, now: Int64) throws(BrokerError) -> Int {
        guard let size = Self.chunkSizes.firstIndex(of: range.count) else {
            preconditionFailure("a chunk is one of chunkSizes rows, not \(range.count)")
        }
        return try insertChunks[size].run { statement throws(BrokerError) -> Int in
            for (offset, index) in range.enumerated() {
                try Self.bind(rows, at: index, appCode: appCode, sequence: firstSequence + Int64(offset), now: now,
                              to: statement, from: Int32(offset * Self.insertColumnCount + 1))
            }
            try statement.execute()
            return Int(database.changedRowCount)
        }
    }

    /// Binds row `index`'s `insertColumnCount` values from parameter `first` on.
    private static func bind(_ rows: NewRows, at index: Int, appCode: Int64, sequence: Int64, now: Int64, to statement: Statement, from first: Int32) throws(BrokerError) {
        let content = rows.contents[index]
        try statement.bind(sequence, at: first)
        try statement.bind(storedUUID: content.uuidWords, text: rows.samples[index].uuid, at: first + 1)
        try statement.bind(rows.typeCodes[index], at: first + 2)
        try statement.bind(rows.samples[index].startMicros, at: first + 3)
        try statement.bind(rows.samples[index].endMicros, at: first + 4)
        try statement.bind(content.kind, at: first + 5)
        try statement.bind(content.quantity, at: first + 6)
        try statement.bind(content.unit, at: first + 7)
        try statement.bind(content.category, at: first + 8)
        try statement.bind(content.activity, at: first + 9)
        try statement.bind(content.durationMicros, at: first + 10)
        try statement.bind(content.energyKcal, at: first + 11)
        try statement.bind(content.distanceMeters, at: first + 12)
        try statement.bind(content.metadata == MetadataText.empty ? nil : content.metadata, at: first + 13)
        try statement.bind(appCode, at: first + 14)
        try statement.bind(now, at: first + 15)
    }

    /// The sample the app with `appCode` stored under `uuid`, or nil.
    func sample(appCode: Int64, uuid: String) throws(BrokerError) -> Sample? {
        try selectByUUID.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(storedUUID: uuid, at: 2)
            guard try statement.step() else { return nil }
            return try decode(statement).sample
        }
    }

    /// The sample stored as row `sequence` (read through the reading connection), or nil.
    func sample(sequence: Int64) throws(BrokerError) -> Sample? {
        try selectBySequence.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            guard try statement.step() else { return nil }
            return try decode(statement).sample
        }
    }

    /// Where the sample the app with `appCode` stored under `uuid` is (seq, type, dates, source), or nil.
    func locate(appCode: Int64, uuid: String) throws(BrokerError) -> (sequence: Int64, sample: DeletedSample)? {
        try locateByUUID.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(storedUUID: uuid, at: 2)
            return try statement.step() ? try decodeLocation(statement) : nil
        }
    }

    /// Every sample of `appID` and `type` within `bounds`, by seq.
    func locateOwn(appID: String, type: ObjectType, bounds: SampleBounds) throws(BrokerError) -> [(sequence: Int64, sample: DeletedSample)] {
        guard let appCode = try apps.code(of: appID), let typeCode = try types.code(of: type.identifier) else { return [] }
        return try selectOwnMatching.run { statement throws(BrokerError) in
            try statement.bind(appCode, at: 1)
            try statement.bind(typeCode, at: 2)
            try bounds.bind(to: statement, from: 3)
            var rows: [(sequence: Int64, sample: DeletedSample)] = []
            while try statement.step() {
                rows.append(try decodeLocation(statement))
            }
            return rows
        }
    }

    /// Deletes the row with `sequence`.
    func remove(sequence: Int64) throws(BrokerError) {
        try deleteRow.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            try statement.execute()
        }
    }

    /// Up to `limit` readable samples of `type` matching `predicate`, in `sort` order, strictly after `cursor`.
    ///
    /// What is read follows the scope, so the work is a function of what the reader may see:
    /// - own samples only: the app's own rows (`samples_by_app_type_start`), bounded by its own
    ///   longest span (`spans.own`);
    /// - full: every row in range through the sort date's index (`spans.all`);
    /// - from a floor F: the samples ending at or after F (in end order the end-date index from F;
    ///   in start order those starting at or after F, plus those straddling F read through the
    ///   end-date index), merged with the app's own samples ending before F. No row that ends before
    ///   F and is not the app's own is read.
    /// Order is (sort date, seq), both in the sort's direction; the rows carry their seqs for the
    /// next cursor. `cursorRow` is the index of the row a next cursor would start after: that row's
    /// seq is read even where the others' are not.
    func page(type: ObjectType, predicate: SamplePredicate, scope: ScopeFilter, spans: ReadSpans, sort: SampleSort, after cursor: SampleCursor?, limit: Int, cursorRow: Int?) throws(BrokerError) -> PageRows {
        guard let typeCode = try types.code(of: type.identifier) else { return PageRows() }
        let quantities = TypeCatalogue.descriptor(for: type)?.kind == .quantity
        func read(everySequence: Bool) -> PageRead {
            PageRead(
                type: type, typeCode: typeCode, sort: sort, cursor: cursor, limit: limit, quantities: quantities,
                everySequence: everySequence, cursorRow: cursorRow)
        }
        /// `predicate`'s bounds for a type whose samples last at most `span`, cut to after the cursor.
        func bounds(span: Int64) -> SampleBounds? {
            SampleBounds(predicate, maxDurationMicros: span).flatMap { $0.after(cursor, sort: sort) }
        }
        guard let floor = scope.fromMicros else {
            guard let ownCode = scope.ownCode, let own = bounds(span: spans.own) else { return PageRows() }
            return try ownPage(read(everySequence: false), appCode: ownCode, bounds: own)
        }
        guard floor > .min else {
            guard let all = bounds(span: spans.all) else { return PageRows() }
            return try visiblePage(read(everySequence: false), bounds: all)
        }
        // The small parts first: when both are empty the large one needs only its cursor row's seq.
        let all = bounds(span: spans.all)
        let own = try scope.ownCode.flatMap { (ownCode) throws(BrokerError) -> PageRows? in
            guard let before = bounds(span: spans.own)?.endingBefore(floor) else { return nil }
            return try ownPage(read(everySequence: true), appCode: ownCode, bounds: before)
        } ?? PageRows()
        var visible: PageRows
        if sort.key == .endDate {
            visible = try all?.endingAtOrAfter(floor, maxDurationMicros: spans.all)
                .map { (cut) throws(BrokerError) in try visiblePage(read(everySequence: own.count > 0), bounds: cut) } ?? PageRows()
        } else {
            let straddling = try all?.straddling(floor, maxDurationMicros: spans.all)
                .map { (cut) throws(BrokerError) in try straddlingPage(read(everySequence: true), bounds: cut) } ?? PageRows()
            let merges = own.count > 0 || straddling.count > 0
            visible = try all?.startingAtOrAfter(floor)
                .map { (cut) throws(BrokerError) in try visiblePage(read(everySequence: merges), bounds: cut) } ?? PageRows()
            visible = Self.merge(visible, straddling, sort: sort, limit: limit)
        }
        return Self.merge(visible, own, sort: sort, limit: limit)
    }

    /// Samples of a page, in order, and the stored seq of each (`sequences[i]` is `samples[i]`'s).
    struct PageRows {
        /// The samples, in page order.
        var samples: [Sample] = []
        /// Their seqs, in the same order; nil where the read did not need it (see `PageRead.everySequence`).
        var sequences: [Int64?] = []

        /// How many rows.
        var count: Int { samples.count }

        /// Keeps the first `count` rows.
        mutating func keepFirst(_ count: Int) {
            guard count < samples.count else { return }
            samples.removeLast(samples.count - count)
            sequences.removeLast(sequences.count - count)
        }
    }

    /// What one page read needs besides its bounds.
    private struct PageRead {
        let type: ObjectType
        let typeCode: Int64
        let sort: SampleSort
        let cursor: SampleCursor?
        let limit: Int
        /// Whether the type is a quantity type (the lean statements and decoder apply).
        let quantities: Bool
        /// Whether every row's seq is read (for `merge`); otherwise only `cursorRow`'s. Reading a
        /// column costs SQLite an API call per row: about 3 ms of a 129,600-sample read.
        let everySequence: Bool
        /// The row a next cursor would start after (nil: none).
        let cursorRow: Int?

        /// Whether the row at `index` needs its seq.
        func needsSequence(at index: Int) -> Bool { everySequence || index == cursorRow }
    }

    /// A page through the sort date's index: every sample within `bounds` (already cut to what the scope shows).
    private func visiblePage(_ read: PageRead, bounds: SampleBounds) throws(BrokerError) -> PageRows {
        try runPage((read.quantities ? quantityPages : pages)[read.sort], read, bounds: bounds, appCode: nil)
    }

    /// A page of the samples straddling a floor (`straddlingPageSQL`; start order only).
    private func straddlingPage(_ read: PageRead, bounds: SampleBounds) throws(BrokerError) -> PageRows {
        try runPage((read.quantities ? straddlingQuantityPages : straddlingPages)[read.sort], read, bounds: bounds, appCode: nil)
    }

    /// A page of the app with `appCode`'s own samples.
    private func ownPage(_ read: PageRead, appCode: Int64, bounds: SampleBounds) throws(BrokerError) -> PageRows {
        try runPage((read.quantities ? ownQuantityPages : ownPages)[read.sort], read, bounds: bounds, appCode: appCode)
    }

    /// Runs a page statement (`pageSQL` or `ownPageSQL` parameters) and decodes its rows.
    private func runPage(_ statement: Statement?, _ read: PageRead, bounds: SampleBounds, appCode: Int64?) throws(BrokerError) -> PageRows {
        guard let statement else { throw .internal("no prepared statement for sort \(read.sort)") }
        return try statement.run { statement throws(BrokerError) in
            try statement.bind(read.typeCode, at: 1)
            try bounds.bind(to: statement, from: 2)
            if let cursor = read.cursor {
                try statement.bind(cursor.sortValue, at: 6)
                try statement.bind(cursor.sequence, at: 7)
            }
            try statement.bind(Int64(read.limit), at: 8)
            if let appCode { try statement.bind(appCode, at: 9) }
            return try rows(statement, read)
        }
    }

    /// Every row of a running page statement (seq in column 0), decoded.
    private func rows(_ statement: Statement, _ read: PageRead) throws(BrokerError) -> PageRows {
        var rows = PageRows()
        rows.samples.reserveCapacity(min(read.limit, 4_096))
        rows.sequences.reserveCapacity(min(read.limit, 4_096))
        while try statement.step() {
            let sequence = read.needsSequence(at: rows.count) ? statement.int64(at: 0) : nil
            if read.quantities {
                rows.samples.append(try decodeQuantity(statement, type: read.type))
            } else {
                rows.samples.append(try decode(statement).sample)
            }
            rows.sequences.append(sequence)
        }
        return rows
    }

    /// The first `limit` of two pages that are each in `sort` order (and share no sample), in that
    /// order: by sort date, then by seq, both in the sort's direction.
    static func merge(_ first: PageRows, _ second: PageRows, sort: SampleSort, limit: Int) -> PageRows {
        guard second.count > 0 else { return first }
        guard first.count > 0 else { return second }
        func key(_ sample: Sample) -> Int64 { sort.key == .startDate ? sample.startMicros : sample.endMicros }
        func precedes(_ a: (key: Int64, sequence: Int64), _ b: (key: Int64, sequence: Int64)) -> Bool {
            sort.descending ? a > b : a < b
        }
        func sequence(_ rows: PageRows, _ index: Int) -> Int64 {
            guard let sequence = rows.sequences[index] else { preconditionFailure("merged pages read every seq") }
            return sequence
        }
        var merged = PageRows()
        let capacity = min(limit, first.count + second.count)
        merged.samples.reserveCapacity(capacity)
        merged.sequences.reserveCapacity(capacity)
        var (i, j) = (0, 0)
        while merged.count < limit, i < first.count || j < second.count {
            let takeFirst = j == second.count || (i < first.count && precedes(
                (key(first.samples[i]), sequence(first, i)), (key(second.samples[j]), sequence(second, j))))
            if takeFirst {
                merged.samples.append(first.samples[i])
                merged.sequences.append(first.sequences[i])
                i += 1
            } else {
                merged.samples.append(second.samples[j])
                merged.sequences.append(second.sequences[j])
                j += 1
            }
        }
        return merged
    }

    /// Up to `limit` readable samples of `type` matching `predicate` with seq in (after, through], by seq.
    ///
    /// Reads follow the scope as in `page`: an own-only reader's own rows; a full reader's rows by
    /// (type, seq); a reader with a floor the rows ending at or after it (end-date index) merged
    /// with its own rows ending before it.
    func added(type: ObjectType, predicate: SamplePredicate, scope: ScopeFilter, spans: ReadSpans, after: Int64, through: Int64, limit: Int) throws(BrokerError) -> [(sequence: Int64, sample: Sample)] {
        guard let typeCode = try types.code(of: type.identifier) else { return [] }
        return try ScopedChangeRead.rows(scope: scope, predicate: predicate, spans: spans, limit: limit) { part throws(BrokerError) in
            let (statement, bounds, appCode): (Statement, SampleBounds, Int64?) = switch part {
            case .own(let bounds, let appCode): (selectOwnAdded, bounds, appCode)
            case .all(let bounds): (selectAdded, bounds, nil)
            case .visible(let bounds): (selectVisibleAdded, bounds, nil)
            }
            return try statement.run { statement throws(BrokerError) in
                try statement.bind(typeCode, at: 1)
                try statement.bind(after, at: 2)
                try statement.bind(through, at: 3)
                try bounds.bind(to: statement, from: 4)
                if let appCode { try statement.bind(appCode, at: 9) }
                try statement.bind(Int64(limit), at: 10)
                var rows: [(sequence: Int64, sample: Sample)] = []
                while try statement.step() {
                    rows.append(try decode(statement))
                }
                return rows
            }
        }
    }

    /// The first `limit` rows of two seq-ordered lists that share no row, by seq.
    static func mergeBySequence<Row>(_ first: [(sequence: Int64, sample: Row)], _ second: [(sequence: Int64, sample: Row)], limit: Int) -> [(sequence: Int64, sample: Row)] {
        guard !second.isEmpty else { return first }
        guard !first.isEmpty else { return second }
        var merged: [(sequence: Int64, sample: Row)] = []
        merged.reserveCapacity(min(limit, first.count + second.count))
        var (i, j) = (0, 0)
        while merged.count < limit, i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i].sequence < second[j].sequence) {
                merged.append(first[i])
                i += 1
            } else {
                merged.append(second[j])
                j += 1
            }
        }
        return merged
    }

    /// Up to `limit` samples with seq > `after` (of `type` and of `appID` when given), by seq.
    func export(type: ObjectType?, appID: String?, after: Int64, limit: Int) throws(BrokerError) -> [(sequence: Int64, sample: Sample)] {
        let statement = switch (type, appID) {
        case (nil, nil): exportAll
        case (_?, nil): exportType
        case (nil, _?): exportApp
        case (_?, _?): exportTypeApp
        }
        // A name without a code has no samples: bind -1, which no row has.
        let typeCode = try type.map { (type) throws(BrokerError) in try types.code(of: type.identifier) ?? -1 }
        let appCode = try appID.map { (appID) throws(BrokerError) in try apps.code(of: appID) ?? -1 }
        return try statement.run { statement throws(BrokerError) in
            try statement.bind(after, at: 1)
            try statement.bind(Int64(limit), at: 2)
            if let typeCode { try statement.bind(typeCode, at: 3) }
            if let appCode { try statement.bind(appCode, at: 4) }
            var rows: [(sequence: Int64, sample: Sample)] = []
            while try statement.step() {
                rows.append(try decode(statement))
            }
            return rows
        }
    }

    /// Count, sum, average, minimum and maximum of the readable quantity samples of `type` matching
    /// `predicate`, per bucket of `boundaries` holding each sample's start; buckets without samples are left out.
    ///
    /// Reads follow the scope as in `page`: an own-only reader's statistics read its own rows only; a
    /// reader with a floor F reads the samples starting at or after F, those straddling F (end-date
    /// index) and its own ending before F, and adds the three up per bucket.
    ///
    /// With a `position` (a cumulative type: an app id's place in the person's order, nil when not
    /// listed) and more than one source visible in the range, the sums merge overlapping sources by
    /// it instead (`mergedStatistics`); an own-only reader never merges (it sees one source).
    func statistics(
        type: ObjectType, predicate: SamplePredicate, scope: ScopeFilter, spans: ReadSpans, boundaries: [Int64],
        position: ((String) throws(BrokerError) -> Int?)? = nil
    ) throws(BrokerError) -> [StatisticsBucket] {
        guard let typeCode = try types.code(of: type.identifier) else { return [] }
        let json = "[" + boundaries.map { String($0) }.joined(separator: ",") + "]"
        func buckets(_ statement: Statement, _ bounds: SampleBounds?, appCode: Int64?) throws(BrokerError) -> [StatisticsBucket] {
            guard let bounds else { return [] }
            let any = try (appCode == nil ? anyInRange : anyOwnInRange).run { any throws(BrokerError) -> Bool in
                try any.bind(typeCode, at: 2)
                try bounds.bind(to: any, from: 3)
                if let appCode { try any.bind(appCode, at: 7) }
                return try any.step()
            }
            guard any else { return [] }
            return try statement.run { statement throws(BrokerError) in
                try statement.bind(json, at: 1)
                try statement.bind(typeCode, at: 2)
                try bounds.bind(to: statement, from: 3)
                if let appCode { try statement.bind(appCode, at: 7) }
                var buckets: [StatisticsBucket] = []
                while try statement.step() {
                    buckets.append(StatisticsBucket(
                        startMicros: statement.int64(at: 0), endMicros: statement.int64(at: 1),
                        sampleCount: UInt64(max(0, statement.int64(at: 2))),
                        sum: statement.optionalDouble(at: 3), average: statement.optionalDouble(at: 4),
                        minimum: statement.optionalDouble(at: 5), maximum: statement.optionalDouble(at: 6)))
                }
                return buckets
            }
        }
        let all = SampleBounds(predicate, maxDurationMicros: spans.all)
        let own = SampleBounds(predicate, maxDurationMicros: spans.own)
        if let position, let floor = scope.fromMicros {
            let merged = readsRollups
                ? try mergedFromRollups(
                    typeCode: typeCode, all: all, own: own, floor: floor, ownCode: scope.ownCode, spans: spans,
                    position: position, boundaries: boundaries)
                : try mergedStatistics(
                    typeCode: typeCode, all: all, own: own, floor: floor, ownCode: scope.ownCode, spans: spans,
                    position: position, boundaries: boundaries)
            if let merged { return merged }
        }
        // Every app's rows within `bounds` (all visible), or one app's: from the rollups where they stand in.
        func part(_ bounds: SampleBounds?, appCode: Int64?) throws(BrokerError) -> [StatisticsBucket] {
            if readsRollups { return try rolledUpBuckets(typeCode: typeCode, bounds: bounds, appCode: appCode, boundaries: boundaries) }
            return try buckets(appCode == nil ? aggregate : ownAggregate, bounds, appCode: appCode)
        }
        guard let floor = scope.fromMicros else {
            guard let ownCode = scope.ownCode else { return [] }
            return try part(own, appCode: ownCode)
        }
        guard floor > .min else { return try part(all, appCode: nil) }
        var parts = [try part(all?.startingAtOrAfter(floor), appCode: nil)]
        if let straddling = all?.straddling(floor, maxDurationMicros: spans.all) {
            parts.append(try straddlingStatistics(typeCode: typeCode, bounds: straddling, boundaries: boundaries))
        }
        if let ownCode = scope.ownCode {
            parts.append(try part(own?.endingBefore(floor), appCode: ownCode))
        }
        return StatisticsBucket.combine(parts.filter { !$0.isEmpty })
    }

    /// The buckets of the quantity samples within `bounds` (cut to straddle a floor), added up in Swift: there are few.
    private func straddlingStatistics(typeCode: Int64, bounds: SampleBounds, boundaries: [Int64]) throws(BrokerError) -> [StatisticsBucket] {
        var values: [Int: [Double]] = [:]
        try straddlingQuantities.run { statement throws(BrokerError) in
            try statement.bind(typeCode, at: 1)
            try bounds.bind(to: statement, from: 2)
            while try statement.step() {
                let start = statement.int64(at: 0)
                // The bucket [b_i, b_i+1) holding the start: the last boundary at or before it.
                var (low, high) = (0, boundaries.count - 1)
                guard start >= boundaries[low], start < boundaries[high] else { continue }
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if boundaries[middle] <= start { low = middle } else { high = middle }
                }
                values[low, default: []].append(statement.double(at: 1))
            }
        }
        return values.keys.sorted().map { index in
            let bucket = values[index] ?? []
            let sum = bucket.reduce(0, +)
            return StatisticsBucket(
                startMicros: boundaries[index], endMicros: boundaries[index + 1], sampleCount: UInt64(bucket.count),
                sum: sum, average: sum / Double(bucket.count), minimum: bucket.min(), maximum: bucket.max())
        }
    }

    /// Whether any sample ends before `instant`: per type code, the first entry of `samples_by_type_end`
    /// (prepared per call: the daemon asks once, at start).
    func hasSamples(endingBefore instant: Int64) throws(BrokerError) -> Bool {
        let statement = try database.prepare("""
            SELECT 1 FROM type_codes AS t
            WHERE EXISTS (SELECT 1 FROM samples AS s WHERE s.type = t.code AND s.end_us < ?1)
            LIMIT 1
            """)
        return try statement.run { statement throws(BrokerError) in
            try statement.bind(instant, at: 1)
            return try statement.step()
        }
    }

    /// The type stored under `code`, cached.
    func objectType(code: Int64) throws(BrokerError) -> ObjectType {
        if let type = objectTypes[code] { return type }
        let type = ObjectType(try types.name(of: code))
        objectTypes[code] = type
        return type
    }

    /// Reads the current row (in `columns` order) as its seq and sample.
    func decode(_ row: Statement) throws(BrokerError) -> (sequence: Int64, sample: Sample) {
        let uuid = row.storedUUID(at: 1)
        let value: SampleValue
        switch row.int64(at: 5) {
        case SampleContent.quantityKind:
            value = .quantity(Quantity(row.double(at: 6), row.string(at: 7)))
        case SampleContent.categoryKind:
            value = .category(row.int64(at: 8))
        case SampleContent.workoutKind:
            value = .workout(WorkoutDetails(
                activityType: row.string(at: 9), durationMicros: row.int64(at: 10),
                totalEnergy: row.optionalDouble(at: 11).map { Quantity($0, "kcal") },
                totalDistance: row.optionalDouble(at: 12).map { Quantity($0, "m") }))
        case let kind:
            throw .internal("sample \"\(uuid)\" has an unknown stored value kind \(kind)")
        }
        let sample = Sample(
            uuid: uuid, type: try objectType(code: row.int64(at: 2)),
            startMicros: row.int64(at: 3), endMicros: row.int64(at: 4), value: value,
            metadata: row.isNull(at: 13) ? [:] : try MetadataText.decode(row.string(at: 13)),
            sourceAppID: try apps.name(of: row.int64(at: 14)), createdMicros: row.int64(at: 15))
        return (row.int64(at: 0), sample)
    }

    /// Reads the current row (in `quantityColumns` order) as a sample of the quantity type `type`; its seq (column 0) is left to the caller.
    ///
    /// A row without a unit is not a quantity (category and workout rows have none): `INTERNAL`.
    func decodeQuantity(_ row: Statement, type: ObjectType) throws(BrokerError) -> Sample {
        guard let unit = row.optionalString(at: 5) else {
            throw .internal("sample \"\(row.storedUUID(at: 1))\" of quantity type \(type.identifier) is stored without a quantity")
        }
        return Sample(
            uuid: row.storedUUID(at: 1), type: type, startMicros: row.int64(at: 2), endMicros: row.int64(at: 3),
            value: .quantity(Quantity(row.double(at: 4), unit)),
            metadata: try row.optionalString(at: 6).map { (text) throws(BrokerError) in try MetadataText.decode(text) } ?? [:],
            sourceAppID: try apps.name(of: row.int64(at: 7)), createdMicros: row.int64(at: 8))
    }

    /// Reads the current row (in `locationColumns` order).
    private func decodeLocation(_ row: Statement) throws(BrokerError) -> (sequence: Int64, sample: DeletedSample) {
        (row.int64(at: 0), DeletedSample(
            uuid: row.storedUUID(at: 1), type: try objectType(code: row.int64(at: 2)),
            startMicros: row.int64(at: 3), endMicros: row.int64(at: 4), sourceAppID: try apps.name(of: row.int64(at: 5))))
    }
}
