/// Carries a loop-confined value through a `@Sendable` closure that runs back on the loop thread.
///
/// The wrapped value is only ever touched on the loop thread: it is created there, rides along
/// while a worker runs, and is unwrapped by the completion the loop runs. That makes the unchecked
/// Sendable sound.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
