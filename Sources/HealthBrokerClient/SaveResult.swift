/// What a save (or an admin import) did: how many samples were stored and how many were already there.
///
/// Saves are idempotent: a sample whose uuid is already stored with the same content counts as
/// `unchanged`, so a client that lost its connection mid-save can simply save the batch again.
public struct SaveResult: Sendable, Hashable {
    /// Samples newly stored.
    public var saved: Int
    /// Samples already stored with the same content (nothing changed).
    public var unchanged: Int

    /// Creates a result.
    public init(saved: Int, unchanged: Int) {
        self.saved = saved
        self.unchanged = unchanged
    }
}
