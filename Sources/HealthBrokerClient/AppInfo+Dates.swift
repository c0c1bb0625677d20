public import Foundation

/// `Date`s of a registered app.
extension AppInfo {
    /// When the app was registered.
    public var createdDate: Date { Date(microsecondsSince1970: createdMicros) }

    /// When its token was last issued.
    public var tokenRotatedDate: Date { Date(microsecondsSince1970: tokenRotatedMicros) }
}
