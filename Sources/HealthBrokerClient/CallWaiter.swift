/// Who is waiting for a call's next event: a suspended task, or a completion callback.
enum CallWaiter: Sendable {
    /// A task suspended in `withUnsafeContinuation`.
    ///
    /// Unsafe rather than checked: `CallTable` hands every waiter exactly one event (a delivery
    /// removes the waiter; its tests cover each path), and a checked continuation costs an
    /// allocation and two atomic operations on every call.
    case task(UnsafeContinuation<CallEvent, Never>)
    /// A callback; it runs on the thread that delivers (the loop thread, or a solo call's caller
    /// holding the reader token), so it must not block.
    case callback(@Sendable (CallEvent) -> Void)

    /// Hands `event` over. Never call this while holding a lock.
    func deliver(_ event: CallEvent) {
        switch self {
        case .task(let continuation): continuation.resume(returning: event)
        case .callback(let callback): callback(event)
        }
    }
}
