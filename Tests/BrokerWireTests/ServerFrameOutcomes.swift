import BrokerModel
@testable import BrokerWire

/// What a ServerFrame decoder made of some bytes: a frame or its error.
typealias ServerFrameOutcome = Result<ServerFrame, BrokerError>

/// What protobuf-c alone (`ProtoReference.serverFrameByProtobufC`) and the public decoder
/// (`decodeServerFrame`, which tries the strict reader first) make of `bytes`: the differential tests
/// compare the two.
func serverFrameOutcomes(_ bytes: [UInt8]) -> (unpacked: ServerFrameOutcome, decoded: ServerFrameOutcome) {
    func outcome(_ decode: () throws(BrokerError) -> ServerFrame) -> ServerFrameOutcome {
        do { return .success(try decode()) } catch { return .failure(error) }
    }
    return (
        outcome { () throws(BrokerError) -> ServerFrame in try ProtoReference.serverFrameByProtobufC(bytes[...]) },
        outcome { () throws(BrokerError) -> ServerFrame in try WireCodec.decodeServerFrame(bytes[...]) })
}
