/// Whether asking for a set of types would show a prompt, as `HKAuthorizationRequestStatus`.
public enum RequestStatus: Int32, Sendable, Hashable, CaseIterable {
    /// The broker cannot tell (e.g. its database is inaccessible).
    case unknown = 0
    /// Some type of the set was never asked for.
    case shouldRequest = 1
    /// Every type of the set was asked for already.
    case unnecessary = 2
}
