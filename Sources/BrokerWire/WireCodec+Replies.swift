public import BrokerModel

// The replies the broker answers at once from memory, appended without a `ServerFrame` or
// `Response` value in between, through the generated per-case frame appenders: the same bytes as
// `append(ServerFrame(…))`.
extension WireCodec {
    /// Appends a ServerFrame answering Ping (no status), as
    /// `append(ServerFrame(callID:response: .ping(PingResponse(payload:brokerTimeMicros:))))` would.
    public static func appendPingReply(callID: UInt64, payload: [UInt8], brokerTimeMicros: Int64, to buffer: inout [UInt8]) {
        var ping = Proto.PingResponse()
        ping.payload = payload
        ping.brokerTimeMicros = brokerTimeMicros
        Proto.ServerFrame.appendFrame(callID: callID, status: nil, ping: ping, to: &buffer)
    }

    /// Appends a ServerFrame answering AuthorizationStatus (no status), as
    /// `append(ServerFrame(callID:response: .authorizationStatus(status)))` would.
    public static func appendAuthorizationStatusReply(callID: UInt64, status: AuthorizationStatus, to buffer: inout [UInt8]) {
        var response = Proto.AuthorizationStatusResponse()
        response.status = Proto.AuthorizationStatus(rawValue: status.rawValue)
        Proto.ServerFrame.appendFrame(callID: callID, status: nil, authorizationStatus: response, to: &buffer)
    }

    /// Appends a ServerFrame answering RequestStatus (no status), as
    /// `append(ServerFrame(callID:response: .requestStatus(status)))` would.
    public static func appendRequestStatusReply(callID: UInt64, status: RequestStatus, to buffer: inout [UInt8]) {
        var response = Proto.RequestStatusResponse()
        response.status = Proto.RequestStatus(rawValue: status.rawValue)
        Proto.ServerFrame.appendFrame(callID: callID, status: nil, requestStatus: response, to: &buffer)
    }

    /// Appends a ServerFrame answering EarliestAuthorizedSampleDate with dates for catalogued types
    /// given by catalogue index (`TypeCatalogue.spelledIndex(of:)`), to the same bytes as
    /// `append(ServerFrame(callID:response: .earliestAuthorizedSampleDate(…)))`: sorted by
    /// identifier (as strcmp orders them), through the generated appender of catalogued entries.
    /// Sorts `entries` in place.
    ///
    /// The indexes must be distinct; the broker answers with this from scratch memory, without
    /// building a dictionary, an array or a `ServerFrame`.
    public static func appendEarliestAuthorizedSampleDateReply(
        callID: UInt64, catalogued entries: UnsafeMutableBufferPointer<Proto.TypeDate.Catalogued>,
        to buffer: inout [UInt8]
    ) {
        if entries.count > 1 {
            // An insertion sort by each identifier's strcmp rank, each rank looked up once: there
            // are at most a few entries.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: entries.count) { ranks in
                for position in entries.indices { ranks[position] = TypeCatalogue.byteOrderRank(index: entries[position].type) }
                for end in 1..<entries.count {
                    var index = end
                    while index > 0, ranks[index] < ranks[index - 1] {
                        entries.swapAt(index, index - 1)
                        ranks.swapAt(index, index - 1)
                        index -= 1
                    }
                }
            }
        }
        Proto.ServerFrame.appendFrame(callID: callID, status: nil, earliestAuthorizedSampleDate: UnsafeBufferPointer(entries), to: &buffer)
    }
}
