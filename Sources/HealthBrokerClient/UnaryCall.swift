/// The client-side state of one unary call in a `CallTable`.
///
/// A call is registered before its frame is written, so its reply may arrive before the caller has
/// suspended: then `outcome` holds the result until the caller attaches its waiter.
package struct UnaryCall<Waiter> {
    /// Who to hand the result to, once attached.
    package var waiter: Waiter?
    /// The result, when it arrived (or the call failed) before a waiter was attached.
    package var outcome: CallEvent?
    /// Monotonic microseconds after which the client gives up on the call; nil: never.
    package var deadline: Int64?
}
