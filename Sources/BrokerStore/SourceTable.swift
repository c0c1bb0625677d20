import BrokerModel

/// The `sources` table: every app that ever asked for authorization, registered or not; listed
/// together with every app that has samples stored.
final class SourceTable {
    private let upsert: Statement
    private let selectAll: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        upsert = try database.prepare("""
            INSERT INTO sources (app_id, app_name, first_request_us, last_request_us) VALUES (?1, ?2, ?3, ?3)
            ON CONFLICT (app_id) DO UPDATE SET app_name = excluded.app_name, last_request_us = excluded.last_request_us
            """)
        // Registered means a row in `apps` with the same id right now. Every app that ever stored a
        // sample has an app code; its counts per type come from one scan of the narrow (app, type)
        // index, grouped in index order (index-only, never the table). An app that never asked and
        // has no samples left is not listed; one that asked is, with whatever it has (0 too). One
        // row per (app, type with samples), or one row with a NULL type for an app without any.
        selectAll = try database.prepare("""
            WITH per_type AS MATERIALIZED (
                SELECT app, type, count(*) AS n FROM samples INDEXED BY samples_by_app_type_seq GROUP BY app, type
            ), counts AS (
                SELECT app_codes.app_id AS app_id, per_type.type AS type, per_type.n AS n
                FROM per_type JOIN app_codes ON app_codes.code = per_type.app
            ), ids AS (
                SELECT app_id FROM sources UNION SELECT app_id FROM counts
            )
            SELECT ids.app_id, coalesce(sources.app_name, apps.name, ids.app_id),
                   coalesce(sources.first_request_us, 0), coalesce(sources.last_request_us, 0),
                   apps.app_id IS NOT NULL, sources.app_id IS NOT NULL, type_codes.identifier, coalesce(counts.n, 0)
            FROM ids
            LEFT JOIN sources ON sources.app_id = ids.app_id
            LEFT JOIN apps ON apps.app_id = ids.app_id
            LEFT JOIN counts ON counts.app_id = ids.app_id
            LEFT JOIN type_codes ON type_codes.code = counts.type
            ORDER BY ids.app_id
            """)
    }

    /// Records a request at `now`: a new source starts with first = last = `now`; an existing one
    /// keeps its first request and takes the new name and last request.
    func recordRequest(appID: String, appName: String, now: Int64) throws(BrokerError) {
        try upsert.run { statement throws(BrokerError) in
            try statement.bind(appID, at: 1)
            try statement.bind(appName, at: 2)
            try statement.bind(now, at: 3)
            try statement.execute()
        }
    }

    /// Every source, sorted by app id (bytewise UTF-8 order), flagged registered when the app is in
    /// `apps`, with its stored sample count in all and per type, and whether it ever asked.
    func all() throws(BrokerError) -> [Source] {
        try selectAll.run { statement throws(BrokerError) in
            var sources: [Source] = []
            while try statement.step() {
                let appID = statement.string(at: 0)
                if sources.last?.appID != appID {
                    sources.append(Source(
                        appID: appID, appName: statement.string(at: 1),
                        firstRequestMicros: statement.int64(at: 2), lastRequestMicros: statement.int64(at: 3),
                        isRegistered: statement.int64(at: 4) != 0, sampleCount: 0,
                        everAsked: statement.int64(at: 5) != 0))
                }
                let count = UInt64(max(0, statement.int64(at: 7)))
                guard count > 0, !statement.isNull(at: 6) else { continue }
                sources[sources.count - 1].sampleCount += count
                sources[sources.count - 1].sampleCounts[ObjectType(statement.string(at: 6)), default: 0] += count
            }
            return sources
        }
    }
}
