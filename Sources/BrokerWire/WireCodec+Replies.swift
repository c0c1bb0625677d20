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
    /// given by index (`TypeCatalogue.spelledIndex(of:)`), to the same bytes as
    /// `append(ServerFrame(callID:response: .earliestAuthorizedSampleDate(…)))`: sorted by
    /// identifier. Sorts `entries` in place.
    ///
    /// The indexes must be distinct; the broker answers with this from scratch memory, without
    /// building a dictionary or a `ServerFrame`.
    public static func appendEarliestAuthorizedSampleDateReply(
        callID: UInt64, catalogued entries: UnsafeMutableBufferPointer<(catalogueIndex: Int, dateMicros: Int64)>,
        to buffer: inout [UInt8]
    ) {
        let types = CataloguedTypes.byIndex
        let ranks = CataloguedTypes.byteOrderRanks
        // An insertion sort: there are at most a few entries.
        if entries.count > 1 {
            for end in 1..<entries.count {
                var index = end
                while index > 0, ranks[entries[index].catalogueIndex] < ranks[entries[index - 1].catalogueIndex] {
                    entries.swapAt(index, index - 1)
                    index -= 1
                }
            }
        }
        var response = Proto.EarliestAuthorizedSampleDateResponse()
        response.dates.reserveCapacity(entries.count)
        for entry in entries {
            var date = Proto.TypeDate()
            date.type = types[entry.catalogueIndex].identifier
            date.dateMicros = entry.dateMicros
            response.dates.append(date)
        }
        Proto.ServerFrame.appendFrame(callID: callID, status: nil, earliestAuthorizedSampleDate: response, to: &buffer)
    }
}

/// The catalogued types by catalogue index, and each one's place in strcmp order of identifiers:
/// made once, for replies that name types by index.
private enum CataloguedTypes {
    /// The type at each catalogue index.
    static let byIndex: [ObjectType] = {
        var types = [ObjectType?](repeating: nil, count: TypeCatalogue.count)
        for descriptor in TypeCatalogue.all {
            guard let index = TypeCatalogue.spelledIndex(of: descriptor.type) else {
                preconditionFailure("catalogue type \(descriptor.type) has no catalogue index")
            }
            types[index] = descriptor.type
        }
        return types.map { type in
            guard let type else { preconditionFailure("a catalogue index has no type") }
            return type
        }
    }()

    /// The strcmp-order rank of each catalogue index's identifier.
    static let byteOrderRanks: [Int] = byIndex.map { type in
        guard let rank = TypeCatalogue.byteOrderRank(of: type) else { preconditionFailure("\(type) has no rank") }
        return rank
    }
}
