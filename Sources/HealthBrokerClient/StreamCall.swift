package import BrokerWire

/// The client-side state of one server-streaming call in a `CallTable`.
///
/// Items the consumer has not taken yet wait in `buffer` (never more than the credit window); the
/// call's end (OK or an error) waits in `end` until the buffer is drained.
package struct StreamCall<Waiter> {
    /// The consumer suspended in `next()`, if any (then `buffer` is empty and `end` is nil).
    package var waiter: Waiter?
    /// Received items not yet taken, from `head` on.
    package var buffer: [Proto.StreamItem] = []
    /// The index of the next item to take in `buffer`.
    package var head = 0
    /// `.end` or `.failure`, once the call has ended.
    package var end: CallEvent?
    /// Credit bookkeeping.
    package var credit: CreditWindow
    /// Monotonic microseconds after which the client gives up on the stream; nil: never.
    package var deadline: Int64?

    /// Items received and not yet taken.
    package var bufferedCount: Int { buffer.count - head }

    /// Creates a stream call with `window` items of credit.
    package init(window: UInt32, deadline: Int64?) {
        self.credit = CreditWindow(window: window)
        self.deadline = deadline
    }

    /// Takes the oldest buffered item and the credit to grant for it (0 once the call has ended).
    package mutating func takeBuffered() -> CallEvent? {
        guard head < buffer.count else { return nil }
        let item = buffer[head]
        head += 1
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
        }
        let grant = credit.take()
        return .item(item, grant: end == nil ? grant : 0)
    }
}
