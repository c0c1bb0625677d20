import BrokerModel

/// The `sources` table: every app that ever asked for authorization, registered or not.
final class SourceTable {
    private let upsert: Statement
    private let selectAll: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        upsert = try database.prepare("""
            INSERT INTO sources (app_id, app_name, first_request_us, last_request_us) VALUES (?1, ?2, ?3, ?3)
            ON CONFLICT (app_id) DO UPDATE SET app_name = excluded.app_name, last_request_us = excluded.last_request_us
            """)
        // Registered means a row in `apps` with the same id right now.
        selectAll = try database.prepare("""
            SELECT sources.app_id, sources.app_name, sources.first_request_us, sources.last_request_us,
                   apps.app_id IS NOT NULL
            FROM sources LEFT JOIN apps ON apps.app_id = sources.app_id
            ORDER BY sources.app_id
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

    /// Every source, sorted by app id (bytewise UTF-8 order), flagged registered when the app is in `apps`.
    func all() throws(BrokerError) -> [Source] {
        try selectAll.run { statement throws(BrokerError) in
            var sources: [Source] = []
            while try statement.step() {
                sources.append(Source(
                    appID: statement.string(at: 0), appName: statement.string(at: 1),
                    firstRequestMicros: statement.int64(at: 2), lastRequestMicros: statement.int64(at: 3),
                    isRegistered: statement.int64(at: 4) != 0))
            }
            return sources
        }
    }
}
