package import BrokerModel

/// Converts frames between the Swift message model and their bytes on the wire; no I/O.
///
/// Decoding takes one frame's message bytes (as `FrameDecoder.nextFrame()` returns them); encoding
/// appends a whole frame, header included, to an output buffer. The bytes are read and written by
/// the code generated from the .proto (`Proto`, Generated/: protobuf-c's exact encoding, a strict
/// decoder and protobuf-c itself for whatever the strict decoder leaves); the `…+Proto` extensions
/// (Mapping/) map those messages to and from the model.
public enum WireCodec {
    /// The error for bytes that do not decode as a `typeName`.
    package static func undecodable(_ typeName: StaticString) -> BrokerError {
        BrokerError(code: .invalidArgument, domain: .protocolError, message: "undecodable \(typeName)")
    }
}
