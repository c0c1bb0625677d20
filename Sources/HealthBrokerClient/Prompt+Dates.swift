public import Foundation

/// `Date`s of a prompt.
extension Prompt {
    /// When the prompt was raised.
    public var createdDate: Date { Date(microsecondsSince1970: createdMicros) }
    /// When the app stops waiting for the answer (its call's deadline); nil when it set none.
    public var deadline: Date? { deadlineMicros > 0 ? Date(microsecondsSince1970: deadlineMicros) : nil }
}
