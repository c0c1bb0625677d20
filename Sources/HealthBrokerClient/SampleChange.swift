public import Foundation
import BrokerModel

/// An observer notification: samples of `type` the app may read changed (read them with an anchored query).
public struct SampleChange: Sendable, Hashable {
    /// The type that changed.
    public var type: ObjectType
    /// When the broker saw the change.
    public var changed: Date

    /// Creates a notification.
    public init(type: ObjectType, changed: Date) {
        self.type = type
        self.changed = changed
    }
}
