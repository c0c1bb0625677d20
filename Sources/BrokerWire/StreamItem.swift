public import BrokerModel

/// One item of a server stream; the case matches the call's method.
public enum StreamItem: Sendable, Hashable {
    /// An item of PingStream.
    case ping(PingResponse)
    /// An item of AdminWatchPrompts.
    indirect case promptEvent(PromptEvent)
    /// A page of Query or AdminExport.
    case samples([Sample])
    /// A page of AnchoredQuery.
    case anchoredPage(AnchoredPage)
    /// An Observe notification: this type changed.
    case observed(type: ObjectType, changedMicros: Int64)
}
