public import BrokerModel

/// Receives a connection's frames and its end, on the loop thread.
public protocol PipeConnectionDelegate: AnyObject {
    /// One complete frame's protobuf payload (the 5-byte prefix already checked and removed).
    ///
    /// A `Span`: it often lies in the loop's read buffer, which the next read reuses, and the
    /// compiler keeps it from outliving the call.
    func connection(_ connection: PipeConnection, didReceiveFrame payload: Span<UInt8>)
    /// The connection is closed (by either side); `error` is the framing error that closed it, if any.
    func connectionDidClose(_ connection: PipeConnection, error: BrokerError?)
    /// The connection's peer left replies unread for the stall timeout and is being cut off with
    /// `error`; the close follows once the final status is written, or after a grace period.
    func connection(_ connection: PipeConnection, cutsOffStalledPeerWith error: BrokerError)
}

extension PipeConnectionDelegate {
    /// Nothing to do by default: `connectionDidClose` reports the error when the connection closes.
    public func connection(_ connection: PipeConnection, cutsOffStalledPeerWith error: BrokerError) {}
}
