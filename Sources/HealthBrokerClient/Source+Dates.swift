public import Foundation

/// `Date`s of a source (an app that asked for authorization, or has samples stored).
extension Source {
    /// Its first request (the epoch when it never asked: see `everAsked`).
    public var firstRequestDate: Date { Date(microsecondsSince1970: firstRequestMicros) }

    /// Its latest request (the epoch when it never asked: see `everAsked`).
    public var lastRequestDate: Date { Date(microsecondsSince1970: lastRequestMicros) }
}
