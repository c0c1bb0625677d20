/// The broker database's schema, as migration steps (append-only).
///
/// Instants are int64 microseconds since the Unix epoch (UTC), in columns ending `_us`.
public enum BrokerSchema {
    /// Every migration, in order.
    public static let migrations = Migrations(steps: [version1, version2, version3, version4, version5, version6, version7, version8, version9, version10, version11, version12, version13, version14, version15])

    /// Version 1: the app registry and a key/value table for broker secrets such as a MAC key.
    static let version1 = """
        CREATE TABLE apps (
            app_id TEXT NOT NULL PRIMARY KEY,
            name TEXT NOT NULL,
            read_usage TEXT NOT NULL,
            share_usage TEXT NOT NULL,
            pinned_uid INTEGER NULL,
            token_hash BLOB NOT NULL,
            created_us INTEGER NOT NULL,
            token_rotated_us INTEGER NOT NULL
        );
        CREATE TABLE broker_meta (
            key TEXT NOT NULL PRIMARY KEY,
            value BLOB
        );
        """

    /// Version 2: authorization grants, the apps that ever asked (sources) and the person's characteristics.
    ///
    /// `grants` has no foreign key to `apps`: removing an app drops its grants explicitly, and a
    /// grant row is keyed by the app id alone. `share` is 1 deny / 2 allow, `read` is 1 deny /
    /// 2 full / 3 limited; NULL means that part was never asked. `read_from_us` is set exactly
    /// when `read` is 3 (limited).
    static let version2 = """
        CREATE TABLE grants (
            app_id TEXT NOT NULL,
            type TEXT NOT NULL,
            share INTEGER NULL CHECK (share IN (1, 2)),
            read INTEGER NULL CHECK (read IN (1, 2, 3)),
            read_from_us INTEGER NULL,
            decided_us INTEGER NOT NULL,
            decided_by TEXT NOT NULL,
            PRIMARY KEY (app_id, type),
            CHECK ((read IS 3) = (read_from_us IS NOT NULL))
        );
        CREATE TABLE sources (
            app_id TEXT NOT NULL PRIMARY KEY,
            app_name TEXT NOT NULL,
            first_request_us INTEGER NOT NULL,
            last_request_us INTEGER NOT NULL
        );
        CREATE TABLE characteristics (
            type TEXT NOT NULL PRIMARY KEY,
            value TEXT NOT NULL,
            updated_us INTEGER NOT NULL
        );
        """

    /// Version 3: samples, their tombstones, the access log, the change sequence and per-type span bounds.
    ///
    /// `samples.seq` and `tombstones.seq` come from the one counter in `change_sequence` (never
    /// reused, even when the newest row is deleted or pruned), so an anchor can compare positions
    /// across both tables. `value_kind` is 1 quantity (`quantity` + `unit`, canonical), 2 category
    /// (`category`), 3 workout (`activity`, `duration_us`, `energy_kcal`, `distance_m`).
    /// `metadata` is a JSON object with keys sorted by UTF-8 bytes; `content_hash` is 16 bytes of
    /// FNV-1a over the canonical content (see `SampleContent`). `type_spans` keeps, per type, the
    /// longest end − start ever stored (never lowered on delete), which bounds start-date ranges
    /// for end-date and overlap predicates so they stay index range scans.
    static let version3 = """
        CREATE TABLE change_sequence (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last_seq INTEGER NOT NULL,
            pruned_through_seq INTEGER NOT NULL
        );
        INSERT INTO change_sequence (id, last_seq, pruned_through_seq) VALUES (1, 0, 0);
        CREATE TABLE samples (
            seq INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            value_kind INTEGER NOT NULL CHECK (value_kind IN (1, 2, 3)),
            quantity REAL NULL,
            unit TEXT NULL,
            category INTEGER NULL,
            activity TEXT NULL,
            duration_us INTEGER NULL,
            energy_kcal REAL NULL,
            distance_m REAL NULL,
            metadata TEXT NOT NULL,
            source_app_id TEXT NOT NULL,
            created_us INTEGER NOT NULL,
            content_hash BLOB NOT NULL,
            CHECK (start_us <= end_us)
        );
        CREATE INDEX samples_by_type_start ON samples (type, start_us, uuid);
        CREATE INDEX samples_by_type_end ON samples (type, end_us, uuid);
        CREATE INDEX samples_by_source_type ON samples (source_app_id, type);
        -- Index entries end with the rowid (seq): this one serves "type = ? AND seq > ? ORDER BY seq".
        CREATE INDEX samples_by_type_seq ON samples (type);
        CREATE TABLE type_spans (
            type TEXT NOT NULL PRIMARY KEY,
            max_duration_us INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE tombstones (
            seq INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL,
            type TEXT NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            source_app_id TEXT NOT NULL,
            deleted_us INTEGER NOT NULL
        );
        CREATE INDEX tombstones_by_type_seq ON tombstones (type, seq);
        CREATE TABLE access_log (
            id INTEGER PRIMARY KEY,
            at_us INTEGER NOT NULL,
            app_id TEXT NOT NULL,
            operation TEXT NOT NULL,
            type TEXT NOT NULL,
            sample_count INTEGER NOT NULL
        );
        CREATE INDEX access_log_by_app ON access_log (app_id, at_us);
        CREATE INDEX access_log_by_time ON access_log (at_us);
        """

    /// Version 4: leaner `samples` and `tombstones` rows for faster saves and reads.
    ///
    /// Type identifiers and source app ids move to `type_codes` and `app_codes` and the sample and
    /// tombstone rows (and their indexes) keep the small integer code instead of the text: the indexes
    /// shrink by about 30 bytes per entry each, so a save writes far fewer pages. Empty metadata is
    /// stored as NULL instead of "{}". Codes are never reused or deleted. Every stored sample is
    /// copied over with the same seq, and so is every tombstone, so anchors keep their meaning.
    static let version4 = """
        CREATE TABLE type_codes (
            code INTEGER PRIMARY KEY,
            identifier TEXT NOT NULL UNIQUE
        );
        CREATE TABLE app_codes (
            code INTEGER PRIMARY KEY,
            app_id TEXT NOT NULL UNIQUE
        );
        INSERT INTO type_codes (identifier) SELECT type FROM samples UNION SELECT type FROM tombstones ORDER BY 1;
        INSERT INTO app_codes (app_id)
            SELECT source_app_id FROM samples UNION SELECT source_app_id FROM tombstones ORDER BY 1;
        CREATE TABLE samples_v4 (
            seq INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            type INTEGER NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            value_kind INTEGER NOT NULL CHECK (value_kind IN (1, 2, 3)),
            quantity REAL NULL,
            unit TEXT NULL,
            category INTEGER NULL,
            activity TEXT NULL,
            duration_us INTEGER NULL,
            energy_kcal REAL NULL,
            distance_m REAL NULL,
            metadata TEXT NULL,
            app INTEGER NOT NULL,
            created_us INTEGER NOT NULL,
            content_hash BLOB NOT NULL,
            CHECK (start_us <= end_us)
        );
        INSERT INTO samples_v4 (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, activity,
                                duration_us, energy_kcal, distance_m, metadata, app, created_us, content_hash)
        SELECT s.seq, s.uuid, t.code, s.start_us, s.end_us, s.value_kind, s.quantity, s.unit, s.category, s.activity,
               s.duration_us, s.energy_kcal, s.distance_m, NULLIF(s.metadata, '{}'), a.code, s.created_us, s.content_hash
        FROM samples AS s
        JOIN type_codes AS t ON t.identifier = s.type
        JOIN app_codes AS a ON a.app_id = s.source_app_id
        ORDER BY s.seq;
        DROP TABLE samples;
        ALTER TABLE samples_v4 RENAME TO samples;
        CREATE INDEX samples_by_type_start ON samples (type, start_us, uuid);
        CREATE INDEX samples_by_type_end ON samples (type, end_us, uuid);
        CREATE INDEX samples_by_app_type ON samples (app, type);
        -- Index entries end with the rowid (seq): this one serves "type = ? AND seq > ? ORDER BY seq".
        CREATE INDEX samples_by_type_seq ON samples (type);
        CREATE TABLE tombstones_v4 (
            seq INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL,
            type INTEGER NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            app INTEGER NOT NULL,
            deleted_us INTEGER NOT NULL
        );
        INSERT INTO tombstones_v4 (seq, uuid, type, start_us, end_us, app, deleted_us)
        SELECT d.seq, d.uuid, t.code, d.start_us, d.end_us, a.code, d.deleted_us
        FROM tombstones AS d
        JOIN type_codes AS t ON t.identifier = d.type
        JOIN app_codes AS a ON a.app_id = d.source_app_id
        ORDER BY d.seq;
        DROP TABLE tombstones;
        ALTER TABLE tombstones_v4 RENAME TO tombstones;
        CREATE INDEX tombstones_by_type_seq ON tombstones (type, seq);
        """

    /// Version 5: an app's own samples indexed by date, for clamped reads.
    ///
    /// A limited app reads the samples ending at or after its floor through the date indexes and
    /// its own earlier samples through this one, so a clamped read costs what it returns instead
    /// of scanning the whole predicate range. It replaces `(app, type)`, whose uses it covers.
    static let version5 = """
        DROP INDEX samples_by_app_type;
        CREATE INDEX samples_by_app_type_start ON samples (app, type, start_us, uuid);
        """

    /// Version 6: leaner sample rows and date indexes, for faster saves.
    ///
    /// - `uuid` holds a canonical UUID as its 16 bytes instead of 36 characters (`StoredUUID`:
    ///   `stored_uuid()` converts; a value that is not a canonical UUID stays the text it was).
    /// - `content_hash` is gone: a save that meets a stored uuid compares the two canonical
    ///   encodings, which it had to do anyway whenever the hashes matched.
    /// - The three date indexes lose their trailing uuid. Every index entry already ends with the
    ///   rowid (seq), so `(type, start_us)` is in (type, start_us, seq) order: query pages order and
    ///   page by (sort date, seq) instead of (sort date, uuid).
    ///
    /// - The two CHECK constraints (start ≤ end, value kind 1–3) are gone: in the ingest benchmark
    ///   they cost about 10% of the writer's CPU per row. `SaveRequest` rejects a start after the end
    ///   before anything is written, `SampleContent` only produces kinds 1–3, and reading a row of
    ///   any other kind is `INTERNAL`.
    ///
    /// - `tombstones.uuid` is stored the same way (updated in place: a TEXT column keeps a blob as
    ///   a blob), so a delete's tombstone takes less room than the row it replaces.
    ///
    /// Together these took the broker's CPU per saved sample from about 9 µs to 6.6–6.8 µs in the
    /// ingest benchmark (`benchmarks/ingest-ab.sh`). Every row keeps its seq, so anchors keep their
    /// meaning.
    static let version6 = """
        CREATE TABLE samples_v6 (
            seq INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            type INTEGER NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            value_kind INTEGER NOT NULL,
            quantity REAL NULL,
            unit TEXT NULL,
            category INTEGER NULL,
            activity TEXT NULL,
            duration_us INTEGER NULL,
            energy_kcal REAL NULL,
            distance_m REAL NULL,
            metadata TEXT NULL,
            app INTEGER NOT NULL,
            created_us INTEGER NOT NULL
        );
        INSERT INTO samples_v6 (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, activity,
                                duration_us, energy_kcal, distance_m, metadata, app, created_us)
        SELECT seq, stored_uuid(uuid), type, start_us, end_us, value_kind, quantity, unit, category, activity,
               duration_us, energy_kcal, distance_m, metadata, app, created_us
        FROM samples
        ORDER BY seq;
        DROP TABLE samples;
        ALTER TABLE samples_v6 RENAME TO samples;
        CREATE INDEX samples_by_type_start ON samples (type, start_us);
        CREATE INDEX samples_by_type_end ON samples (type, end_us);
        CREATE INDEX samples_by_app_type_start ON samples (app, type, start_us);
        -- Index entries end with the rowid (seq): this one serves "type = ? AND seq > ? ORDER BY seq".
        CREATE INDEX samples_by_type_seq ON samples (type);
        UPDATE tombstones SET uuid = stored_uuid(uuid);
        """

    /// Version 7: a sample's identity is (source app, uuid), and what a read touches follows the reader's scope.
    ///
    /// - `samples` is unique on `(app, uuid)` instead of `uuid`: each app has its own uuid
    ///   namespace, so a save or delete can never tell an app that another app holds a uuid. The
    ///   table is rebuilt (SQLite cannot drop a column's UNIQUE); every row keeps its seq.
    /// - `samples_by_app_type_seq` and `tombstones_by_app_type_seq` serve an app's own anchored
    ///   changes (entries end with the rowid, seq), `tombstones_by_type_end` a limited reader's
    ///   deletions ending at or after its floor: a read-denied app's anchored query walks its own
    ///   rows only, whatever others store.
    /// - `app_type_spans` keeps the longest end − start per (app, type), so an app's own reads are
    ///   bounded by its own samples' spans, never by another app's long sample.
    /// - `long_spans` keeps, per type, the frontier of samples (of any app) longer than
    ///   `LongSpanTable.threshold` (10 minutes) by end date and duration: a limited reader's span
    ///   bound is the longest of those ending at or after its floor (or the threshold), found with
    ///   one seek, so a long sample it may not see never widens what its reads walk.
    /// - `prune_marks` remembers pruned tombstones per (app, type) as the points (end_us, seq) that
    ///   no other pruned tombstone dominates, so an anchor expires only when a deletion its app
    ///   could have seen was pruned. The old store-wide mark is carried over for every (app, type)
    ///   with end_us = max, so anchors it expired stay expired.
    static let version7 = """
        CREATE TABLE samples_v7 (
            seq INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL,
            type INTEGER NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            value_kind INTEGER NOT NULL,
            quantity REAL NULL,
            unit TEXT NULL,
            category INTEGER NULL,
            activity TEXT NULL,
            duration_us INTEGER NULL,
            energy_kcal REAL NULL,
            distance_m REAL NULL,
            metadata TEXT NULL,
            app INTEGER NOT NULL,
            created_us INTEGER NOT NULL,
            UNIQUE (app, uuid)
        );
        INSERT INTO samples_v7 (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, activity,
                                duration_us, energy_kcal, distance_m, metadata, app, created_us)
        SELECT seq, uuid, type, start_us, end_us, value_kind, quantity, unit, category, activity,
               duration_us, energy_kcal, distance_m, metadata, app, created_us
        FROM samples
        ORDER BY seq;
        DROP TABLE samples;
        ALTER TABLE samples_v7 RENAME TO samples;
        CREATE INDEX samples_by_type_start ON samples (type, start_us);
        CREATE INDEX samples_by_type_end ON samples (type, end_us);
        CREATE INDEX samples_by_app_type_start ON samples (app, type, start_us);
        -- Index entries end with the rowid (seq): these serve "… seq > ? ORDER BY seq".
        CREATE INDEX samples_by_type_seq ON samples (type);
        CREATE INDEX samples_by_app_type_seq ON samples (app, type);
        CREATE INDEX tombstones_by_app_type_seq ON tombstones (app, type);
        CREATE INDEX tombstones_by_type_end ON tombstones (type, end_us);
        CREATE TABLE app_type_spans (
            app INTEGER NOT NULL,
            type INTEGER NOT NULL,
            max_duration_us INTEGER NOT NULL,
            PRIMARY KEY (app, type)
        ) WITHOUT ROWID;
        INSERT INTO app_type_spans (app, type, max_duration_us)
        SELECT app, type, max(max(end_us - start_us, 0)) FROM (
            SELECT app, type, start_us, end_us FROM samples
            UNION ALL SELECT app, type, start_us, end_us FROM tombstones
        ) GROUP BY app, type;
        CREATE TABLE long_spans (
            type INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            duration_us INTEGER NOT NULL,
            PRIMARY KEY (type, end_us, duration_us)
        ) WITHOUT ROWID;
        -- The frontier: per type, the long samples (and tombstones) no other ends later and lasts longer.
        WITH long (type, end_us, duration_us) AS (
            SELECT type, end_us, end_us - start_us FROM samples WHERE end_us - start_us > 600000000
            UNION SELECT type, end_us, end_us - start_us FROM tombstones WHERE end_us - start_us > 600000000
        )
        INSERT INTO long_spans (type, end_us, duration_us)
        SELECT l.type, l.end_us, l.duration_us FROM long AS l
        WHERE NOT EXISTS (
            SELECT 1 FROM long AS o WHERE o.type = l.type AND o.end_us >= l.end_us AND o.duration_us >= l.duration_us
              AND (o.end_us > l.end_us OR o.duration_us > l.duration_us)
        );
        CREATE TABLE prune_marks (
            type INTEGER NOT NULL,
            app INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            PRIMARY KEY (type, app, end_us)
        ) WITHOUT ROWID;
        CREATE INDEX prune_marks_by_type_end ON prune_marks (type, end_us);
        INSERT INTO prune_marks (type, app, end_us, seq)
        SELECT t.code, a.code, 9223372036854775807, c.pruned_through_seq
        FROM type_codes AS t, app_codes AS a, change_sequence AS c
        WHERE c.pruned_through_seq > 0;
        """

    /// Version 8: every type identifier in the catalogue's exact spelling.
    ///
    /// Earlier brokers stored a type as the bytes the app sent, while memory compared types by
    /// `String` equality: `H\u{212A}QuantityTypeIdentifierStepCount` (KELVIN SIGN) was stepCount in
    /// memory but another row on disk, so a revocation of stepCount missed it and a restart brought
    /// it back. `ObjectType` now canonicalises when it is made; this step repairs what is stored,
    /// finding odd spellings with `catalogue_type()` (SQLite compares text by bytes):
    ///
    /// - `grants`: per (app, type) the row with the most recent decision (`decided_us`) is kept, in
    ///   the catalogue's spelling; the other spellings' rows go. On a tie the row already spelled
    ///   as catalogued wins, since that is the row revocations and later decisions addressed.
    /// - `characteristics`: the same by `updated_us`.
    /// - `type_spans` (keyed by the text): the longest span of any spelling.
    /// - `access_log`: respelled.
    /// - `type_codes`: an odd spelling's code is merged into the catalogued one's (made if missing):
    ///   its samples and tombstones move over with their seq unchanged, `app_type_spans` keep the
    ///   longest span, `long_spans` are merged and then reduced to their frontier again,
    ///   `prune_marks` keep the highest seq per point; then the odd code is deleted, as nothing
    ///   refers to it any more.
    static let version8 = """
        DELETE FROM grants WHERE rowid IN (
            SELECT rowid FROM (
                SELECT rowid, row_number() OVER (
                    PARTITION BY app_id, catalogue_type(type)
                    ORDER BY decided_us DESC, type = catalogue_type(type) DESC, type
                ) AS rank
                FROM grants
            ) WHERE rank > 1
        );
        UPDATE grants SET type = catalogue_type(type) WHERE type <> catalogue_type(type);
        DELETE FROM characteristics WHERE rowid IN (
            SELECT rowid FROM (
                SELECT rowid, row_number() OVER (
                    PARTITION BY catalogue_type(type)
                    ORDER BY updated_us DESC, type = catalogue_type(type) DESC, type
                ) AS rank
                FROM characteristics
            ) WHERE rank > 1
        );
        UPDATE characteristics SET type = catalogue_type(type) WHERE type <> catalogue_type(type);
        INSERT INTO type_spans (type, max_duration_us)
        SELECT catalogue_type(type), max_duration_us FROM type_spans WHERE type <> catalogue_type(type)
        ON CONFLICT (type) DO UPDATE SET max_duration_us = max(max_duration_us, excluded.max_duration_us);
        DELETE FROM type_spans WHERE type <> catalogue_type(type);
        UPDATE access_log SET type = catalogue_type(type) WHERE type <> catalogue_type(type);
        INSERT OR IGNORE INTO type_codes (identifier)
        SELECT catalogue_type(identifier) FROM type_codes WHERE identifier <> catalogue_type(identifier);
        CREATE TEMP TABLE type_code_moves AS
        SELECT odd.code AS old, canonical.code AS new
        FROM type_codes AS odd JOIN type_codes AS canonical ON canonical.identifier = catalogue_type(odd.identifier)
        WHERE odd.identifier <> canonical.identifier;
        UPDATE samples SET type = (SELECT new FROM type_code_moves WHERE old = samples.type)
        WHERE type IN (SELECT old FROM type_code_moves);
        UPDATE tombstones SET type = (SELECT new FROM type_code_moves WHERE old = tombstones.type)
        WHERE type IN (SELECT old FROM type_code_moves);
        INSERT INTO app_type_spans (app, type, max_duration_us)
        SELECT s.app, m.new, s.max_duration_us FROM app_type_spans AS s JOIN type_code_moves AS m ON m.old = s.type WHERE true
        ON CONFLICT (app, type) DO UPDATE SET max_duration_us = max(max_duration_us, excluded.max_duration_us);
        DELETE FROM app_type_spans WHERE type IN (SELECT old FROM type_code_moves);
        INSERT OR IGNORE INTO long_spans (type, end_us, duration_us)
        SELECT m.new, l.end_us, l.duration_us FROM long_spans AS l JOIN type_code_moves AS m ON m.old = l.type;
        DELETE FROM long_spans WHERE type IN (SELECT old FROM type_code_moves);
        DELETE FROM long_spans WHERE type IN (SELECT new FROM type_code_moves) AND EXISTS (
            SELECT 1 FROM long_spans AS o
            WHERE o.type = long_spans.type AND o.end_us >= long_spans.end_us AND o.duration_us >= long_spans.duration_us
              AND (o.end_us > long_spans.end_us OR o.duration_us > long_spans.duration_us)
        );
        INSERT INTO prune_marks (type, app, end_us, seq)
        SELECT m.new, p.app, p.end_us, p.seq FROM prune_marks AS p JOIN type_code_moves AS m ON m.old = p.type WHERE true
        ON CONFLICT (type, app, end_us) DO UPDATE SET seq = max(seq, excluded.seq);
        DELETE FROM prune_marks WHERE type IN (SELECT old FROM type_code_moves);
        DELETE FROM type_codes WHERE code IN (SELECT old FROM type_code_moves);
        DROP TABLE type_code_moves;
        """

    /// Version 9: an app's own rows read from one index, in order, without visiting the table.
    ///
    /// `samples_by_app_type_start` carries, after its key (app, type, start_us, seq), every column
    /// a quantity page and an own-row statistics read need. An app's own rows lie in the table
    /// wherever their seqs put them, between everything other apps saved meanwhile; read through
    /// the table they cost more pages in a crowded store than in one that holds only them. Read
    /// from this index they cost the same wherever the rest of the store is (docs/PRIVACY.md).
    /// `seq` is spelled out in the key so the (start_us, seq) order pages rely on stays the index's order.
    static let version9 = """
        DROP INDEX samples_by_app_type_start;
        CREATE INDEX samples_by_app_type_start
            ON samples (app, type, start_us, seq, end_us, quantity, unit, uuid, metadata, created_us, value_kind);
        """

    /// Version 10: the access log says which call did it, and an import's chunks share one row.
    ///
    /// - `method`: the call ("Query", "Statistics", "Save", "AdminImport", …); rows written before
    ///   this version keep "" (which call wrote them is not known).
    /// - `batch_id`: the id an import's chunks share (NULL for every other row); the unique partial
    ///   index lets a chunk add its count to the row its batch already has for the app and type.
    static let version10 = """
        ALTER TABLE access_log ADD COLUMN method TEXT NOT NULL DEFAULT '';
        ALTER TABLE access_log ADD COLUMN batch_id TEXT NULL;
        CREATE UNIQUE INDEX access_log_by_batch ON access_log (batch_id, app_id, type) WHERE batch_id IS NOT NULL;
        """

    /// Version 11: the source priority per type (`source_priorities`): the app ids the person
    /// ordered, best first (`position` 0 first). Statistics of cumulative types merge overlapping
    /// samples of several sources by it; sources not listed rank after the listed ones, by app id.
    static let version11 = """
        CREATE TABLE source_priorities (
            type TEXT NOT NULL,
            position INTEGER NOT NULL,
            app_id TEXT NOT NULL,
            PRIMARY KEY (type, position),
            UNIQUE (type, app_id)
        ) WITHOUT ROWID;
        """

    /// Version 12: correlations (blood pressure, food). A correlation's members are ordinary rows
    /// of `samples` (so queries and statistics of their types include them); `correlations` holds
    /// the correlation itself, in the app's uuid namespace like a sample, and `correlation_members`
    /// links each member row (by its seq) to its correlation, with the member's type, source app
    /// and end date, so a correlation query reads the links the caller may see by the same rules as
    /// samples: a type's links ending at or after a limited date (`correlation_members_by_type_end`),
    /// or the app's own (`correlation_members_by_app_type`), never the rest. Deleting a member
    /// sample drops its link (the trigger); deleting a correlation drops its links, not its members.
    static let version12 = """
        CREATE TABLE correlations (
            seq INTEGER PRIMARY KEY,
            app INTEGER NOT NULL,
            uuid NOT NULL,
            type INTEGER NOT NULL,
            start_us INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            metadata TEXT NULL,
            created_us INTEGER NOT NULL,
            UNIQUE (app, uuid)
        );
        CREATE INDEX correlations_by_app_type_start ON correlations (app, type, start_us);
        CREATE TABLE correlation_members (
            member INTEGER PRIMARY KEY,
            correlation INTEGER NOT NULL,
            type INTEGER NOT NULL,
            app INTEGER NOT NULL,
            end_us INTEGER NOT NULL
        );
        CREATE INDEX correlation_members_by_type_end ON correlation_members (type, end_us, correlation);
        CREATE INDEX correlation_members_by_app_type ON correlation_members (app, type, correlation);
        CREATE INDEX correlation_members_by_correlation ON correlation_members (correlation);
        CREATE TRIGGER samples_leave_correlations AFTER DELETE ON samples
        BEGIN
            DELETE FROM correlation_members WHERE member = old.seq;
        END;
        """

    /// Version 13: per-hour rollups of quantity samples per (source app, type), for statistics over
    /// long ranges (`HourRollupTable`, docs/STATISTICS.md), filled from the samples already stored.
    ///
    /// Keyed by (app, type, hour) for one app's rows (a read-denied reader's own); the covering
    /// index by (type, hour, app) serves readers that may see every app's samples of an hour.
    /// `covered_us` of the rows filled here is exact where the hour's samples do not overlap (a
    /// minute-level history), 0 (unknown, a valid lower bound) otherwise: merging sources reads the
    /// samples of such an hour until a delete rebuilds it.
    static let version13 = """
        CREATE TABLE hour_rollups (
            type INTEGER NOT NULL,
            app INTEGER NOT NULL,
            hour INTEGER NOT NULL,
            sample_count INTEGER NOT NULL,
            total REAL NOT NULL,
            lowest REAL NOT NULL,
            highest REAL NOT NULL,
            max_end_us INTEGER NOT NULL,
            covered_us INTEGER NOT NULL,
            PRIMARY KEY (app, type, hour)
        ) WITHOUT ROWID;
        CREATE INDEX hour_rollups_by_type_hour
            ON hour_rollups (type, hour, app, sample_count, total, lowest, highest, max_end_us, covered_us);
        \(rebuildRollups)
        """

    /// Fills `hour_rollups` from `samples` (an empty table; also after a run without rollup upkeep).
    ///
    /// `covered_us`: where no sample of the hour starts before an earlier one (by start, then seq)
    /// has ended, the samples do not overlap and their union is the sum of their parts within the
    /// hour; otherwise 0 (unknown, a valid lower bound).
    static let rebuildRollups = """
        INSERT INTO hour_rollups (type, app, hour, sample_count, total, lowest, highest, max_end_us, covered_us)
        SELECT type, app, hour, count(*), sum(quantity), min(quantity), max(quantity), max(end_us),
               CASE WHEN max(overlaps) = 0 THEN min(sum(min(end_us, (hour + 1) * 3600000000) - start_us), 3600000000) ELSE 0 END
        FROM (
            SELECT type, app, quantity, start_us, end_us, hour,
                   coalesce(start_us < max(end_us) OVER (
                       PARTITION BY app, type, hour ORDER BY start_us, seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS overlaps
            FROM (
                SELECT seq, type, app, quantity, start_us, end_us,
                       CASE WHEN start_us >= 0 THEN start_us / 3600000000 ELSE (start_us + 1) / 3600000000 - 1 END AS hour
                FROM samples WHERE value_kind = 1
            )
        )
        GROUP BY app, type, hour;
        """

    /// Version 14: anchored queries of correlation types. Each correlation takes a position in the
    /// change sequence when saved (`change_seq`; those already stored get fresh positions after the
    /// last one handed out, in the order they were saved), and a deleted correlation leaves a
    /// tombstone in `tombstones` (its own type) plus, in `correlation_tombstone_members`, the type,
    /// source app and end of each object it still held, so its deletion is read by the same scoped
    /// indexes as its links were: a reader learns of the deletion of a correlation it could have
    /// seen, never of another. `correlation_prune_marks` is `prune_marks` for those member points,
    /// so an anchor of a correlation type expires only for a pruned deletion its reader could see.
    static let version14 = """
        ALTER TABLE correlations ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
        UPDATE correlations SET change_seq = (SELECT last_seq FROM change_sequence WHERE id = 1) + r.n
        FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM correlations) AS r
        WHERE r.seq = correlations.seq;
        UPDATE change_sequence SET last_seq = last_seq + (SELECT count(*) FROM correlations) WHERE id = 1;
        CREATE TABLE correlation_tombstone_members (
            seq INTEGER NOT NULL,
            type INTEGER NOT NULL,
            app INTEGER NOT NULL,
            end_us INTEGER NOT NULL
        );
        CREATE INDEX correlation_tombstone_members_by_type_end ON correlation_tombstone_members (type, end_us, seq);
        CREATE INDEX correlation_tombstone_members_by_app_type ON correlation_tombstone_members (app, type, seq);
        CREATE INDEX correlation_tombstone_members_by_seq ON correlation_tombstone_members (seq);
        CREATE TABLE correlation_prune_marks (
            type INTEGER NOT NULL,
            app INTEGER NOT NULL,
            end_us INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            PRIMARY KEY (type, app, end_us)
        ) WITHOUT ROWID;
        CREATE INDEX correlation_prune_marks_by_type_end ON correlation_prune_marks (type, end_us);
        """

    /// Version 15: correlations that lost an object under an earlier build are deleted, and every
    /// correlation records how many objects it was saved with (`object_count`).
    ///
    /// Deleting one object of a correlation now deletes the correlation (HKCorrelation is
    /// immutable); builds before that rule (schema versions 12 to 14) dropped only the object's
    /// link (the `samples_leave_correlations` trigger), leaving the correlation with fewer objects. Nothing
    /// stored says how many a correlation had, so the ones known to have lost an object are those
    /// the saving rules (`SampleValidator`, unchanged since version 12) say cannot be as saved: a
    /// blood pressure correlation with fewer than its two objects (one systolic, one diastolic),
    /// and any correlation with none. A food correlation that kept at least one object cannot be
    /// told from one saved with that many; it stays, and its `object_count` is what it holds now.
    ///
    /// Each one found is deleted as a delete of the correlation is (`removeCorrelations`): a
    /// tombstone under the correlation type at the next position of the change sequence, in
    /// `correlation_tombstone_members` the type, source app and end of each object it still holds
    /// (so exactly the readers who may see it now learn of its deletion, by the same scoped
    /// indexes as its links), its links and row gone, its objects left as samples. No access-log
    /// row is written (no app asked for it). The rule is spelled out here rather than read from the
    /// catalogue so that this released step never changes.
    static let version15 = """
        CREATE TEMP TABLE lost_correlations AS
        SELECT c.seq AS correlation,
               (SELECT last_seq FROM change_sequence WHERE id = 1) + row_number() OVER (ORDER BY c.seq) AS tombstone
        FROM correlations AS c JOIN type_codes AS t ON t.code = c.type
        WHERE (SELECT count(*) FROM correlation_members AS m WHERE m.correlation = c.seq)
              < CASE t.identifier WHEN 'HKCorrelationTypeIdentifierBloodPressure' THEN 2 ELSE 1 END;
        INSERT INTO tombstones (seq, uuid, type, start_us, end_us, app, deleted_us)
        SELECT l.tombstone, c.uuid, c.type, c.start_us, c.end_us, c.app,
               CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER)
        FROM lost_correlations AS l JOIN correlations AS c ON c.seq = l.correlation
        ORDER BY l.tombstone;
        INSERT INTO correlation_tombstone_members (seq, type, app, end_us)
        SELECT l.tombstone, m.type, m.app, m.end_us
        FROM lost_correlations AS l JOIN correlation_members AS m ON m.correlation = l.correlation
        ORDER BY l.tombstone, m.member;
        DELETE FROM correlation_members WHERE correlation IN (SELECT correlation FROM lost_correlations);
        DELETE FROM correlations WHERE seq IN (SELECT correlation FROM lost_correlations);
        UPDATE change_sequence SET last_seq = last_seq + (SELECT count(*) FROM lost_correlations) WHERE id = 1;
        DROP TABLE lost_correlations;
        ALTER TABLE correlations ADD COLUMN object_count INTEGER NOT NULL DEFAULT 0;
        UPDATE correlations SET object_count = (SELECT count(*) FROM correlation_members WHERE correlation = correlations.seq);
        """
}
