import BrokerModel

/// One call: a client-chosen id, an optional deadline, stream credit and the request (its case is the method).
public struct Call: Sendable, Hashable {
    /// Non-zero, unique among the client's calls in flight on its connection.
    public var callID: UInt64
    /// Deadline from the call's arrival at the broker, in microseconds; 0 means none.
    public var timeoutMicros: Int64
    /// Stream items the client will take before granting more; 0 means the default window.
    public var initialCredit: UInt32
    /// The method and its arguments, as the generated request; nil when the call sets no request
    /// case this build knows (a newer client's method, answered UNIMPLEMENTED).
    public var request: Proto.Call.Request?

    /// Creates a call.
    public init(callID: UInt64, timeoutMicros: Int64 = 0, initialCredit: UInt32 = 0, request: Proto.Call.Request?) {
        self.callID = callID
        self.timeoutMicros = timeoutMicros
        self.initialCredit = initialCredit
        self.request = request
    }

    /// The stream window used when a call asks for credit 0.
    public static let defaultStreamCredit: UInt32 = 64
    /// The most stream items a call may have granted and not yet received: a larger
    /// `initialCredit`, or Credit frames past it, are clamped to this window (not an error).
    ///
    /// Credit is the client's promise to buffer; it never makes the broker allocate anything (the
    /// broker queues items only while the connection's output has room), but an unbounded window
    /// would let a stream run on for ever at one client's pace without it ever granting again.
    public static let maxStreamCredit: UInt32 = 4_096
}
