import BrokerTransport

/// Carries a loop-confined value through a `@Sendable` closure that runs back on the loop thread.
///
/// The wrapped value is only ever touched on the loop thread: it is wrapped there, rides along
/// while another thread runs, and is unwrapped by the work the loop runs. Both ends check it in
/// debug builds (`EventLoop.assertInLoop`, as swift-nio's `NIOLoopBound` preconditions), which is
/// what the unchecked Sendable rests on. For a value made on one thread and given to another, use
/// `HandOff`.
struct LoopBound<Value>: @unchecked Sendable {
    private let wrapped: Value
    private let loop: EventLoop

    /// Wraps `value`; must be called on `loop`'s thread.
    init(_ value: Value, loop: EventLoop) {
        loop.assertInLoop()
        wrapped = value
        self.loop = loop
    }

    /// The value; must be read on the loop's thread.
    var value: Value {
        loop.assertInLoop()
        return wrapped
    }
}
