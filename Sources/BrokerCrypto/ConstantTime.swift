import CSodium

/// Constant-time byte comparison through `sodium_memcmp`.
enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes; false at once if their lengths differ.
    ///
    /// Only the comparison of equal-length inputs is constant-time; lengths are not secret here
    /// (hashes and tags have fixed, public lengths).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        Sodium.ensureInitialized()
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                sodium_memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }
}
