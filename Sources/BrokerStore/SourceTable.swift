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
        // sample has an app code; its count is one range of the narrow (app, type) index (an
        // index-only count, never the table). An app that never asked and has no samples left is
        // not listed; one that asked is, with whatever it has (0 too).
        selectAll = try database.prepare("""
            WITH counts AS MATERIALIZED (
                SELECT app_codes.app_id AS app_id,
                       (SELECT count(*) FROM samples INDEXED BY samples_by_app_type_seq WHERE samples.app = app_codes.code) AS n
                FROM app_codes
            ), ids AS (
                SELECT app_id FROM sources UNION SELECT app_id FROM counts WHERE n > 0
            )
            SELECT ids.app_id, coalesce(sources.app_name, apps.name, ids.app_id),
                   coalesce(sources.first_request_us, 0), coalesce(sources.last_request_us, 0),
                   apps.app_id IS NOT NULL, coalesce(counts.n, 0), sources.app_id IS NOT NULL
            FROM ids
            LEFT JOIN sources ON sources.app_id = ids.app_id
            LEFT JOIN apps ON apps.app_id = ids.app_id
            LEFT JOIN counts ON counts.app_id = ids.app_id
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
    /// `apps`, with its stored sample count, and whether it ever asked.
    func all() throws(BrokerError) -> [Source] {
        try selectAll.run { statement throws(BrokerError) in
            var sources: [Source] = []
            while try statement.step() {
                sources.append(Source(
                    appID: statement.string(at: 0), appName: statement.string(at: 1),
                    firstRequestMicros: statement.int64(at: 2), lastRequestMicros: statement.int64(at: 3),
                    isRegistered: statement.int64(at: 4) != 0, sampleCount: UInt64(max(0, statement.int64(at: 5))),
                    everAsked: statement.int64(at: 6) != 0))
            }
            return sources
        }
    }
}
