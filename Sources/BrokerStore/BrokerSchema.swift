/// The broker database's schema, as migration steps (append-only).
///
/// Instants are int64 microseconds since the Unix epoch (UTC), in columns ending `_us`.
public enum BrokerSchema {
    /// Every migration, in order.
    public static let migrations = Migrations(steps: [version1, version2])

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
}
