public import Foundation

/// `Date`s of a recorded grant.
extension Grant {
    /// When the latest part was decided.
    public var decidedDate: Date { Date(microsecondsSince1970: decidedMicros) }
}
