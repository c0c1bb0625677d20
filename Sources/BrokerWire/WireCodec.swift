import BrokerModel

/// Converts frames between the Swift message model and protobuf-c encoded bytes; no I/O.
///
/// Decoding takes one frame's message bytes (as `FrameDecoder.nextFrame()` returns them); encoding
/// appends a whole frame, header included, to an output buffer. Encoding builds the protobuf-c
/// structs on the stack, pointing into the Swift strings and arrays for the duration of the pack,
/// and packs straight into the output buffer. Decoding unpacks into a small stack arena (see
/// `UnpackArena`) and copies the fields out into Swift values.
public enum WireCodec {
    /// The error for bytes that do not decode as a `typeName`.
    static func undecodable(_ typeName: StaticString) -> BrokerError {
        BrokerError(code: .invalidArgument, domain: .protocolError, message: "undecodable \(typeName)")
    }
}
