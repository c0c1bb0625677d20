public import Foundation

/// The `Date` of an access-log line.
extension AccessLogEntry {
    /// When the access happened.
    public var date: Date { Date(microsecondsSince1970: atMicros) }
}
