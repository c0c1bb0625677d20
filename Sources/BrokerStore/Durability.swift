/// How hard SQLite works to make a commit survive power loss (`PRAGMA synchronous`).
public enum Durability: Sendable, Hashable {
    /// `synchronous=NORMAL`: in WAL mode the database never corrupts, but the last commits before
    /// a power cut (not a process crash) may be lost. Faster; the default.
    case normal
    /// `synchronous=FULL`: every commit is fsynced before it returns.
    case full

    /// The `PRAGMA synchronous` value.
    var pragmaValue: String {
        switch self {
        case .normal: "NORMAL"
        case .full: "FULL"
        }
    }
}
