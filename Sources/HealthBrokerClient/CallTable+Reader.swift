extension CallTable {
    // Who reads the socket (`reader`), and the one rule that keeps every waiter served:
    //
    //     reader == .nobody  ⇒  no call is registered (count == 0)
    //
    // It holds because `reader` becomes `.nobody` only where `count == 0` is checked (the loop
    // after a read, `loopStopsReading`; a holder ending its hold, `endHold`), and `count` grows
    // only in `openUnary`/`openStream`, which move `.nobody` to `.loop` (waking the loop) or to
    // `.holder` (the registering caller, who reads itself) in the same step. All of it under the
    // connection's one lock (the table's), so no registration can slip between a check and a
    // change. Hence a waiter (which belongs to a registered call) always has a reader: the loop,
    // or a holder, who gives the socket to the loop (and wakes it) when it ends its hold with any
    // call still registered. A holder's hold is bounded: it ends it before its task could suspend
    // (`ConnectionCore+Hold`).
    //
    // `.loop` → anything else is done only on the loop's thread (`loopStopsReading`), so the loop,
    // having seen `.loop`, may read without the lock; every change to `.loop` by another thread
    // returns "wake the loop", which then polls for `POLLIN` again.

    /// The loop stops reading after a read: only when it reads now, no call is registered and the
    /// connection is open (a solo caller may then read for its own reply). Loop thread.
    package mutating func loopStopsReading() {
        guard reader == .loop, count == 0, closedError == nil else { return }
        setReader(.nobody)
        checkReader()
    }

    /// The loop takes the socket back from nobody (it saw a hang-up or an error); true when the
    /// loop reads now (false: a holder does, and will see it). Loop thread.
    package mutating func loopReadsAgain() -> Bool {
        if reader == .nobody { setReader(.loop) }
        checkReader()
        return reader == .loop
    }

    /// Call `id`'s caller ends its hold (nothing when it does not hold): the socket goes to the loop
    /// while any call is registered or the connection ended (true: the caller must wake the loop,
    /// which polls without `POLLIN` until then), else to nobody.
    package mutating func endHold(_ id: UInt64) -> Bool {
        guard reader == .holder(id) else { return false }
        if count == 0 && closedError == nil {
            setReader(.nobody)
            return false
        }
        setReader(.loop)
        return true
    }

    /// True when call `id`'s caller holds (reads the socket for its reply).
    package func isHeld(by id: UInt64) -> Bool {
        reader == .holder(id)
    }

    mutating func setReader(_ new: SocketReader) {
        reader = new
        readerToken.publish(new)
    }

    /// Checks the rule above, and that a holder's call is registered (debug builds).
    @inline(__always)
    func checkReader() {
        #if DEBUG
        switch reader {
        case .nobody: assert(count == 0, "nobody reads the socket while \(count) calls are registered")
        case .holder(let id): assert(unaryCalls[id] != nil, "call \(id) holds but is not registered")
        case .loop: break
        }
        #endif
    }
}
