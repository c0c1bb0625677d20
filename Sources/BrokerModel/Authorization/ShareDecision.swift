/// A person's decision on sharing (writing) one type.
public enum ShareDecision: Int32, Sendable, Hashable, CaseIterable {
    /// Writing denied.
    case deny = 1
    /// Writing allowed.
    case allow = 2
}
