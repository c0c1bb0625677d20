import CSodium

/// Initialises libsodium exactly once, from any thread.
///
/// Every entry point in this module calls `ensureInitialized()` before touching libsodium, so
/// callers never need to; calling it at start-up only moves the one-time cost earlier.
public enum Sodium {
    /// Whether `sodium_init()` succeeded; Swift runs a static initialiser once, thread-safely.
    private static let ready: Bool = sodium_init() >= 0

    /// Initialises libsodium if that has not happened yet; traps if libsodium cannot start.
    ///
    /// `sodium_init()` fails only when the system offers no source of randomness, in which case
    /// no token or key could be generated safely, so there is nothing sensible to continue with.
    public static func ensureInitialized() {
        precondition(ready, "libsodium failed to initialise (sodium_init() < 0)")
    }
}
