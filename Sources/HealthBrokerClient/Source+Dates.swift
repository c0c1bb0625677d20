public import Foundation

/// `Date`s of a source (an app that asked for authorization).
extension Source {
    /// Its first request.
    public var firstRequestDate: Date { Date(microsecondsSince1970: firstRequestMicros) }

    /// Its latest request.
    public var lastRequestDate: Date { Date(microsecondsSince1970: lastRequestMicros) }
}
