import BrokerWire

/// Flow-control bookkeeping for one server stream, on the client side.
///
/// The broker may send `window` items up front. Each item the consumer takes is counted; once half
/// the window (at least 1) has been taken, that many items are granted back in one Credit frame. So
/// at most `window` items are ever buffered, and credit frames cost one per half window.
package struct CreditWindow: Sendable, Equatable {
    /// The stream window, in items (a requested 0 becomes the default of 64).
    package let window: UInt32
    /// Taken items not yet granted back.
    package private(set) var takenSinceGrant: UInt32 = 0
    /// Items the broker may still send before it needs more credit.
    package private(set) var allowance: UInt64

    /// Starts a stream with `window` items of initial credit (0: `Call.defaultStreamCredit`).
    package init(window: UInt32) {
        self.window = window == 0 ? Call.defaultStreamCredit : window
        self.allowance = UInt64(self.window)
    }

    /// How many taken items trigger a grant: half the window, at least 1.
    package var grantThreshold: UInt32 { max(1, window / 2) }

    /// Records an item arriving; false when the broker sent more than it was granted.
    package mutating func receive() -> Bool {
        guard allowance > 0 else { return false }
        allowance -= 1
        return true
    }

    /// Records the consumer taking an item; returns the credit to grant now (0: not yet).
    package mutating func take() -> UInt32 {
        takenSinceGrant += 1
        guard takenSinceGrant >= grantThreshold else { return 0 }
        let grant = takenSinceGrant
        takenSinceGrant = 0
        allowance += UInt64(grant)
        return grant
    }
}
