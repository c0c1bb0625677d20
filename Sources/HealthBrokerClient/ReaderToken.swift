import Synchronization

/// Who may read a connection's socket: its loop's thread, the caller of a solo unary call that
/// waits for its own reply in `poll(2)` (a "hold", see `ConnectionCore+Hold`), or nobody for now.
///
/// Exactly one thread reads at a time, so the read-side state (`ReaderState`) needs no lock: it
/// belongs to whoever holds the token. Transitions:
/// - `loop` → `idle`: only the loop, after a read left no call in flight (under the table's lock).
/// - `idle` → `held`: a solo caller (`tryHold`, under the table's lock, with its call the only one).
/// - `held` → `idle` / `loop`: the holder when it is done (under the table's lock): `loop` when any
///   call is still in flight or the connection ended, and then it wakes the loop.
/// - `idle` → `loop`: whoever attaches a waiter that the loop must serve (`claimForLoop`, under the
///   table's lock, then waking the loop), or the loop itself when the socket reports a hang-up or an
///   error (`loopMayRead`).
///
/// So while any waiter is attached the token is never `idle`: the table's lock orders every
/// attach against the `… → idle` transitions, which check that no call is in flight.
///
/// While the token is not `loop`, the loop polls the socket without `POLLIN` (only `POLLOUT` for
/// its outbox, and the hang-up and error conditions `poll` always reports), so a reply wakes only
/// the holder, and an idle connection's loop still learns at once that the broker hung up.
///
/// Ordering: taking the token is an acquiring operation and giving it up a releasing one, so each
/// reader sees everything the previous one did to `ReaderState`.
final class ReaderToken: Sendable {
    /// The token's states.
    enum State: Int {
        /// The loop's thread reads.
        case loop = 0
        /// A solo call's caller reads.
        case held = 1
        /// Nobody reads: nothing is in flight.
        case idle = 2
    }

    private let state = Atomic<Int>(State.loop.rawValue)
    /// Holds so far (figures and tests).
    let holds = Atomic<Int>(0)

    /// A token the loop holds.
    init() {}

    /// The current state (acquiring: a reader that sees `loop` here sees the last reader's work).
    var current: State { State(rawValue: state.load(ordering: .acquiring))! }

    /// Takes the token for a solo caller if nobody reads now. Under the table's lock.
    func tryHold() -> Bool {
        let (taken, _) = state.compareExchange(expected: State.idle.rawValue, desired: State.held.rawValue, ordering: .acquiringAndReleasing)
        if taken { holds.add(1, ordering: .relaxed) }
        return taken
    }

    /// The holder gives the token up: to the loop (which it must then wake) or to nobody. Under the
    /// table's lock.
    func release(toLoop: Bool) {
        state.store(toLoop ? State.loop.rawValue : State.idle.rawValue, ordering: .releasing)
    }

    /// The loop stops reading (nothing is in flight). Loop thread, holding the token, under the
    /// table's lock.
    func loopGoesIdle() {
        state.store(State.idle.rawValue, ordering: .releasing)
    }

    /// Hands an idle token to the loop; true when it did (the caller must then wake the loop, which
    /// is polling without `POLLIN`). Under the table's lock.
    func claimForLoop() -> Bool {
        // Every transition to `idle` happens under the table's lock, which the caller holds, so a
        // plain load sees it; the usual answer (the loop reads already) then costs no atomic write.
        guard state.load(ordering: .relaxed) == State.idle.rawValue else { return false }
        return state.compareExchange(expected: State.idle.rawValue, desired: State.loop.rawValue, ordering: .acquiringAndReleasing).exchanged
    }

    /// True when the loop may read now: it holds the token, or took it back from nobody. Loop thread.
    func loopMayRead() -> Bool {
        switch current {
        case .loop: true
        case .held: false
        case .idle: claimForLoop()
        }
    }
}
