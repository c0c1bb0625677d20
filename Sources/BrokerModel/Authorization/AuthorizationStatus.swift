/// An app's share (write) status for one type, as `HKAuthorizationStatus`; read status is never revealed.
public enum AuthorizationStatus: Int32, Sendable, Hashable, CaseIterable {
    /// The app never asked to share this type (a read-only grant also leaves it here).
    case notDetermined = 0
    /// The person denied sharing.
    case sharingDenied = 1
    /// The person allowed sharing.
    case sharingAuthorized = 2
}
