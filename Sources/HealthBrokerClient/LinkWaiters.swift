import BrokerModel

/// Callers waiting for a link to come back, each settled exactly once: by the link (up or ended),
/// by its own timeout, or by task cancellation, whichever comes first.
///
/// A waiter is allocated (under the same lock that saw the link down) before it suspends, so an
/// outcome that arrives in between is kept for it rather than lost.
struct LinkWaiters {
    /// The connection to use, or the error to fail with.
    typealias Outcome = Result<ConnectionCore, BrokerError>
    /// A suspended caller.
    typealias Waiter = CheckedContinuation<Outcome, Never>

    private enum Slot {
        case allocated
        case waiting(Waiter)
        case resolved(Outcome)
    }

    private var slots: [UInt64: Slot] = [:]
    private var nextID: UInt64 = 1

    /// Registers a new waiter; returns its id.
    mutating func allocate() -> UInt64 {
        let id = nextID
        nextID += 1
        slots[id] = .allocated
        return id
    }

    /// Suspends waiter `id` on `waiter`, or returns its outcome if it is already settled.
    mutating func park(_ id: UInt64, on waiter: Waiter) -> Outcome? {
        switch slots[id] {
        case .allocated:
            slots[id] = .waiting(waiter)
            return nil
        case .resolved(let outcome):
            slots[id] = nil
            return outcome
        case .waiting, nil:
            return .failure(.callCancelled)
        }
    }

    /// Settles waiter `id` with `outcome`; returns who to resume, if it was suspended. Does nothing
    /// if it was settled already.
    mutating func settle(_ id: UInt64, with outcome: Outcome) -> Waiter? {
        switch slots[id] {
        case .allocated:
            slots[id] = .resolved(outcome)
            return nil
        case .waiting(let waiter):
            slots[id] = nil
            return waiter
        case .resolved, nil:
            return nil
        }
    }

    /// Settles every waiter not settled yet with `outcome`; returns the suspended ones to resume.
    mutating func settleAll(with outcome: Outcome) -> [Waiter] {
        var suspended: [Waiter] = []
        for (id, slot) in slots {
            switch slot {
            case .allocated:
                slots[id] = .resolved(outcome)
            case .waiting(let waiter):
                suspended.append(waiter)
                slots[id] = nil
            case .resolved:
                break
            }
        }
        return suspended
    }
}
