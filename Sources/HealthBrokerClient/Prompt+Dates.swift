public import Foundation

/// `Date`s of a prompt.
extension Prompt {
    /// When the prompt was raised.
    public var createdDate: Date { Date(microsecondsSince1970: createdMicros) }
}
