/// One call: a client-chosen id, an optional deadline, stream credit and the request (its case is the method).
public struct Call: Sendable, Hashable {
    /// Non-zero, unique among the client's calls in flight on its connection.
    public var callID: UInt64
    /// Deadline from the call's arrival at the broker, in microseconds; 0 means none.
    public var timeoutMicros: Int64
    /// Stream items the client will take before granting more; 0 means the default window.
    public var initialCredit: UInt32
    /// The method and its arguments.
    public var request: Request

    /// Creates a call.
    public init(callID: UInt64, timeoutMicros: Int64 = 0, initialCredit: UInt32 = 0, request: Request) {
        self.callID = callID
        self.timeoutMicros = timeoutMicros
        self.initialCredit = initialCredit
        self.request = request
    }

    /// The stream window used when a call asks for credit 0.
    public static let defaultStreamCredit: UInt32 = 64
}
