import BrokerModel
import BrokerWire

/// Every call in flight on one connection: ids, waiters, early results, stream buffers, deadlines.
///
/// Pure bookkeeping with no I/O, no locks and no clock: the connection keeps it under its lock,
/// passes the time in, and hands the returned deliveries to their waiters after unlocking. Generic
/// over the waiter so tests can drive it without continuations.
package struct CallTable<Waiter> {
    /// A waiter and the event to hand it.
    package struct Delivery {
        /// Who to resume.
        package var waiter: Waiter
        /// What to resume it with.
        package var event: CallEvent
    }

    /// A newly registered call.
    package struct Opened: Equatable {
        /// Its call id.
        package var id: UInt64
        /// True when the loop must be woken: the call's deadline is earlier than any it waits for,
        /// or the loop reads the socket again (it read for nobody).
        package var wakeLoop: Bool
        /// True when the caller reads the socket for its reply now (`reader` is `.holder(id)`):
        /// it must end the hold (`endHold`) before it suspends.
        package var holds: Bool = false
    }

    /// Set once the connection is closed: the error every later call fails with.
    package internal(set) var closedError: BrokerError?
    /// Monotonic microseconds by which the loop must call `expire`; nil: no deadline pending.
    package internal(set) var wakeAt: Int64?
    private var nextCallID: UInt64 = 1
    /// Unary calls by id (internal: the `CallTable+…` extensions use it).
    var unaryCalls: [UInt64: UnaryCall<Waiter>] = [:]
    /// Streaming calls by id (internal: the `CallTable+…` extensions use it).
    var streamCalls: [UInt64: StreamCall<Waiter>] = [:]
    /// Who reads the socket (see `CallTable+Reader`): changed only by the table's methods, so only
    /// under the connection's lock, and published to `readerToken` for the loop's `poll`.
    package internal(set) var reader: SocketReader = .loop
    /// `reader`, readable without the lock (the loop decides on it whether to poll for `POLLIN`).
    let readerToken: ReaderToken

    /// Creates an empty table; the first call id is 1.
    package init() {
        self.init(readerToken: ReaderToken())
    }

    /// Creates an empty table that publishes who reads to `readerToken`.
    init(readerToken: ReaderToken) {
        self.readerToken = readerToken
    }

    /// Calls registered and not yet finished from the caller's side (delivered, cancelled or discarded).
    package var count: Int { unaryCalls.count + streamCalls.count }

    /// True when `id` is a registered call.
    package func contains(_ id: UInt64) -> Bool {
        unaryCalls[id] != nil || streamCalls[id] != nil
    }

    /// Registers a unary call; `waiter` may be attached now (callbacks) or later with `attach`.
    ///
    /// When nobody reads the socket, someone must from now on: the caller itself when `mayHold`
    /// (and no waiter is given: `Opened.holds`), else the loop (`Opened.wakeLoop`).
    package mutating func openUnary(deadline: Int64?, waiter: Waiter? = nil, mayHold: Bool = false) -> Result<Opened, BrokerError> {
        if let closedError { return .failure(closedError) }
        let id = takeCallID()
        unaryCalls[id] = UnaryCall(waiter: waiter, outcome: nil, deadline: deadline)
        var opened = Opened(id: id, wakeLoop: arm(deadline))
        if reader == .nobody {
            if mayHold && waiter == nil {
                setReader(.holder(id))
                opened.holds = true
            } else {
                setReader(.loop)
                opened.wakeLoop = true
            }
        }
        checkReader()
        return .success(opened)
    }

    /// Registers a server-streaming call with `window` items of credit (the loop reads for it).
    package mutating func openStream(deadline: Int64?, window: UInt32) -> Result<Opened, BrokerError> {
        if let closedError { return .failure(closedError) }
        let id = takeCallID()
        streamCalls[id] = StreamCall(window: window, deadline: deadline)
        var opened = Opened(id: id, wakeLoop: arm(deadline))
        if reader == .nobody {
            setReader(.loop)
            opened.wakeLoop = true
        }
        checkReader()
        return .success(opened)
    }

    /// Forgets a call without delivering anything (its frame could not be written), ending its
    /// caller's hold if it held; true when the loop must then be woken (see `endHold`).
    @discardableResult
    package mutating func discard(_ id: UInt64) -> Bool {
        unaryCalls[id] = nil
        streamCalls[id] = nil
        let wake = endHold(id)
        checkReader()
        return wake
    }

    /// Attaches the caller to unary call `id`: returns its result if it is already known (the call is
    /// then finished), else stores `waiter` and returns nil.
    package mutating func attach(_ id: UInt64, waiter: Waiter) -> CallEvent? {
        // By index: one hash look-up, and the entry is not copied out.
        guard let index = unaryCalls.index(forKey: id) else { return .failure(.callCancelled) }
        if let outcome = unaryCalls.values[index].outcome {
            unaryCalls.remove(at: index)
            return outcome
        }
        // A waiter is served by whoever reads; with a call registered, someone does.
        assert(reader != .nobody && reader != .holder(id), "a waiter attached with nobody to read for it: \(reader)")
        unaryCalls.values[index].waiter = waiter
        return nil
    }

    /// Unary call `id`'s result if it is known (the call is then finished, and its caller's hold, if
    /// it held, ended: `wakeLoop` as `endHold` says), else nil; like `attach` without a waiter.
    package mutating func takeFinished(_ id: UInt64) -> (event: CallEvent, wakeLoop: Bool)? {
        let event: CallEvent
        if let index = unaryCalls.index(forKey: id) {
            guard let outcome = unaryCalls.values[index].outcome else { return nil }
            unaryCalls.remove(at: index)
            event = outcome
        } else {
            event = .failure(.callCancelled)
        }
        let wake = endHold(id)
        checkReader()
        return (event, wake)
    }

    /// The stream's next event if one is ready (an item, or its end, which finishes the call); else
    /// stores `waiter` (when given) and returns nil. A call that is gone was cancelled.
    package mutating func nextStreamEvent(_ id: UInt64, waiter: Waiter?) -> CallEvent? {
        guard streamCalls[id] != nil else { return .failure(.callCancelled) }
        if let item = streamCalls[id]?.takeBuffered() { return item }
        if let end = streamCalls[id]?.end {
            streamCalls[id] = nil
            return end
        }
        if let waiter {
            assert(reader != .nobody, "a stream waiter attached with nobody to read for it")
            streamCalls[id]?.waiter = waiter
        }
        return nil
    }

    private mutating func takeCallID() -> UInt64 {
        let id = nextCallID
        nextCallID &+= 1
        if nextCallID == 0 { nextCallID = 1 }
        return id
    }

    /// Lowers `wakeAt` to `deadline` if earlier; true when it did (the loop must be woken).
    private mutating func arm(_ deadline: Int64?) -> Bool {
        guard let deadline else { return false }
        if let wakeAt, wakeAt <= deadline { return false }
        wakeAt = deadline
        return true
    }
}
