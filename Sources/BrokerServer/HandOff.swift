/// Moves a non-Sendable value from the thread that made it to the one that uses it next.
///
/// Sound while the value is used by one thread at a time: the sending thread lets go of it once it
/// has wrapped it (it neither keeps nor touches a copy), and the receiving thread takes it once.
/// Unlike `LoopBound`, either end may be any thread, so nothing can be checked at run time; each
/// use says why its sender lets go.
struct HandOff<Value>: @unchecked Sendable {
    private let value: Value

    /// Wraps `value`, which the calling thread then leaves alone.
    init(_ value: Value) {
        self.value = value
    }

    /// The value, for the receiving thread.
    func take() -> Value {
        value
    }
}
