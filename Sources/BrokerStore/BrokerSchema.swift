/// The broker database's schema, as migration steps (append-only).
///
/// Instants are int64 microseconds since the Unix epoch (UTC), in columns ending `_us`.
public enum BrokerSchema {
    /// Every migration, in order.
    public static let migrations = Migrations(steps: [version1])

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
}
