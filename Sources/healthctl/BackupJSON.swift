/// `healthctl backup --json`: the file the broker wrote.
struct BackupJSON: Encodable {
    /// The backup's absolute path.
    let path: String
    /// Its size in bytes.
    let bytes: Int64
    /// Its SQLite pages.
    let pages: Int64
}
