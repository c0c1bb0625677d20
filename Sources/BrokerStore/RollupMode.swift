import Foundation

/// Whether the store keeps and reads the hour rollups (`HourRollupTable`): always, in normal use.
///
/// The other modes exist for benchmarks that compare against the code before rollups, chosen with
/// the environment variable `HEALTHBROKER_ROLLUPS` when the store opens:
/// - `unread`: rollups are kept up to date, but statistics read the samples only (as before);
/// - `off`: rollups are neither kept nor read. The store is marked, and the next open that keeps
///   rollups rebuilds them from the samples before anything reads them.
enum RollupMode: Equatable {
    case on
    case unread
    case off

    /// The mode `HEALTHBROKER_ROLLUPS` asks for (`on` when unset or unknown).
    static var fromEnvironment: RollupMode {
        switch ProcessInfo.processInfo.environment["HEALTHBROKER_ROLLUPS"] {
        case "off": .off
        case "unread": .unread
        default: .on
        }
    }

    /// Whether saves and deletes keep the rollups.
    var maintains: Bool { self != .off }
    /// Whether statistics read them.
    var reads: Bool { self == .on }
}
