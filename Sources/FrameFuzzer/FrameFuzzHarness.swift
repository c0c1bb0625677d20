import BrokerModel
import BrokerWire

/// libFuzzer's entry point: one input is a byte stream as a connection would deliver it.
///
/// Returns 0 always (libFuzzer reserves other values); a bug traps with a message that names the
/// violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func frameFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FrameFuzzHarness.run(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    return 0
}

/// What the fuzz target checks for one input:
///
/// 1. Framing: the stream fed to a `FrameDecoder` in up to four chunks (cut at points derived from the
///    input, draining frames after each chunk as a connection does) yields the same frames, the same
///    error and (when it ends cleanly) the same leftover as the whole stream appended at once; a
///    decoder that threw keeps throwing the same error; no frame exceeds the size limit.
/// 2. Messages: every frame is decoded as a ClientFrame and as a ServerFrame. A failure must be the
///    codec's protocol error; a success must re-encode into a frame that decodes again to an equal
///    value (when the value equals itself, i.e. holds no NaN) and re-encodes to the same bytes. A
///    call decoded as `.invalid` (well-formed, content the broker cannot take) must carry an
///    INVALID_ARGUMENT naming `samples[i]` of a Save or AdminImport, and re-encodes as the same call
///    with no request case.
/// 3. The generated codec against protobuf-c (ProtoDifferential): the strict reader accepts only what
///    protobuf-c reads the same way, and the encoder writes protobuf-c's bytes.
enum FrameFuzzHarness {
    /// The frame size limit the decoder enforces: small, so the limit is reached by mutated headers.
    static let maxFrameBytes = 64 * 1024

    /// Checks one input; traps on a violated property.
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let chunked = decodeInChunks(input, cuts: cutPoints(for: input)) { payload in
            checkClientFrame(payload)
            checkServerFrame(payload)
            ProtoDifferential.run(payload)
        }
        var whole = FrameDecoder(maxFrameBytes: maxFrameBytes)
        whole.append(contentsOf: Array(input))
        let oneShot = drain(&whole) { _ in }
        check(chunked.frames == oneShot.frames, "chunked and one-shot framing returned different frames")
        check(
            chunked.error == oneShot.error,
            "chunked and one-shot framing ended differently: \(short(chunked.error)) vs \(short(oneShot.error))")
        // After an error the chunked decoder stops appending, so only a clean end has comparable leftovers.
        check(
            chunked.error != nil || chunked.leftover == oneShot.leftover,
            "chunked and one-shot framing left \(chunked.leftover) vs \(oneShot.leftover) bytes")
    }

    /// The frames, the error (if framing failed) and the bytes left buffered after a stream.
    struct Framing {
        var frames: [[UInt8]] = []
        var error: BrokerError?
        var leftover = 0
    }

    /// Up to three cut points in `0...input.count`, in order, chosen by a hash of the input.
    static func cutPoints(for input: UnsafeBufferPointer<UInt8>) -> [Int] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let count = Int(hash % 4)
        var cuts: [Int] = []
        for index in 0..<count {
            let bits = hash >> UInt64(8 + 16 * index)
            cuts.append(Int(bits % UInt64(input.count + 1)))
        }
        return cuts.sorted()
    }

    /// Appends `input` cut at `cuts` through the raw-buffer `append`, draining frames after each chunk.
    static func decodeInChunks(
        _ input: UnsafeBufferPointer<UInt8>, cuts: [Int], _ body: (ArraySlice<UInt8>) -> Void
    ) -> Framing {
        var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        var result = Framing()
        var start = 0
        for end in cuts + [input.count] {
            let chunk = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[start..<end]))
            start = end
            decoder.append(chunk)
            let part = drain(&decoder, body)
            result.frames += part.frames
            result.leftover = part.leftover
            if let error = part.error {
                result.error = error
                return result
            }
        }
        return result
    }

    /// Takes every complete frame from `decoder`, handing each to `body`, until it needs more bytes or throws.
    static func drain(_ decoder: inout FrameDecoder, _ body: (ArraySlice<UInt8>) -> Void) -> Framing {
        var result = Framing()
        while true {
            let frame: ArraySlice<UInt8>?
            do {
                frame = try decoder.nextFrame()
            } catch {
                check(
                    error.domain == .protocolError && (error.code == .invalidArgument || error.code == .resourceExhausted),
                    "framing error is not a protocol error: \(error)")
                do {
                    _ = try decoder.nextFrame()
                    fail("a decoder that threw returned a frame on the next call")
                } catch let again {
                    check(again == error, "a decoder that threw \(error) then threw \(again)")
                }
                result.error = error
                result.leftover = decoder.bufferedByteCount
                return result
            }
            guard let frame else {
                result.leftover = decoder.bufferedByteCount
                check(result.leftover >= 0, "negative buffered byte count")
                return result
            }
            check(frame.count <= maxFrameBytes, "a frame of \(frame.count) bytes passed the \(maxFrameBytes)-byte limit")
            body(frame)
            result.frames.append(Array(frame))
        }
    }

    /// Decodes `payload` as a ClientFrame and checks the round trip of what decodes.
    static func checkClientFrame(_ payload: ArraySlice<UInt8>) {
        checkStrictReading(Proto.ClientFrame.self, payload)
        checkCallFastPath(payload)
        let first: ClientFrame
        do {
            first = try WireCodec.decodeClientFrame(payload)
        } catch {
            checkUndecodable(error, "ClientFrame")
            return
        }
        if case .call(let call) = first, let request = call.request, let error = request.contentError {
            checkInvalid(request.method, error)
            return
        }
        var encoded: [UInt8] = []
        WireCodec.append(first, to: &encoded)
        let second: ClientFrame
        do {
            second = try WireCodec.decodeClientFrame(onlyFrame(in: encoded))
        } catch {
            fail("a re-encoded ClientFrame does not decode: \(error); frame: \(short(first))")
        }
        // A value holding NaN is not equal to itself: compare values only when two separate decodes
        // (separate storage, so no identity shortcut) are equal. The bytes are compared regardless.
        // As for ServerFrames: unknown fields' numbers are kept by decoding only, so the value is
        // compared from the first re-encoding on.
        let third = try? WireCodec.decodeClientFrame(onlyFrame(in: encoded))
        var again: [UInt8] = []
        WireCodec.append(second, to: &again)
        check(again == encoded, "ClientFrame re-encoding is not stable: \(short(first))")
        let fourth = try? WireCodec.decodeClientFrame(onlyFrame(in: again))
        check(second != third || second == fourth, "ClientFrame round trip changed the value: \(short(second)) became \(short(fourth))")
    }

    /// The broker's fast path for a frame holding only a call (`WireCodec.decodeCallFrame`) gives
    /// the call the whole frame's decoding gives, whenever it gives one. Compared by their packed
    /// bytes: a value holding NaN is not equal to itself.
    static func checkCallFastPath(_ payload: ArraySlice<UInt8>) {
        payload.withUnsafeBufferPointer { bytes in
            guard let fast = WireCodec.decodeCallFrame(bytes) else { return }
            guard case .call(let call)? = try? WireCodec.decodeClientFrameKind(bytes) else {
                fail("decodeCallFrame read a call from a frame that does not decode as one: \(fast)")
            }
            check(fast.encoded() == call.encoded(), "decodeCallFrame read \(fast), the frame holds \(call)")
            checkResolvedIdentifiers(fast.request, call.request)
        }
    }

    /// The hot requests' identifiers (`ProtoTypeIdentifier`) resolve to the same catalogue indexes on
    /// the fast path as through the whole frame's decoding (protobuf-c's, when the strict reader
    /// declines it), and each to the type `ObjectType(protoIdentifier:)` makes of its spelling.
    static func checkResolvedIdentifiers(_ fast: Proto.Call.Request?, _ whole: Proto.Call.Request?) {
        let pairs: [(ProtoTypeIdentifier, ProtoTypeIdentifier)]
        switch (fast, whole) {
        case (.authorizationStatus(let a)?, .authorizationStatus(let b)?): pairs = [(a.resolvedType, b.resolvedType)]
        case (.earliestAuthorizedSampleDate(let a)?, .earliestAuthorizedSampleDate(let b)?):
            check(a.resolvedTypes.count == b.resolvedTypes.count, "EarliestAuthorizedSampleDate read \(a.resolvedTypes.count) and \(b.resolvedTypes.count) types")
            pairs = Array(zip(a.resolvedTypes, b.resolvedTypes))
        default: return
        }
        for (a, b) in pairs {
            check(a.catalogueIndex == b.catalogueIndex, "\(a.spelling.debugDescription) resolved to \(a.catalogueIndex) and \(b.catalogueIndex)")
            let before = ObjectType(protoIdentifier: a.spelling)
            check(a.objectType == before && a.objectType.identifier == before.identifier,
                  "\(a.spelling.debugDescription) resolved to \(a.objectType), not \(before)")
        }
    }

    /// A call whose content the broker answers with its own error (`contentError`: a sample
    /// without a value kind this build knows): only Save and AdminImport, INVALID_ARGUMENT naming the sample.
    static func checkInvalid(_ method: ProtoMethod, _ error: BrokerError) {
        check(
            error.code == .invalidArgument && error.domain == .invalidArgument && error.message.hasPrefix("samples["),
            "an invalid \(method.name) call carries an unexpected error: \(error)")
        check(
            (method == .save && method.socket == .app) || (method == .adminImport && method.socket == .admin),
            "only Save and AdminImport can be invalid, not \(method.name) on \(method.socket)")
    }

    /// Decodes `payload` as a ServerFrame and checks the round trip of what decodes.
    static func checkServerFrame(_ payload: ArraySlice<UInt8>) {
        checkStrictReading(Proto.ServerFrame.self, payload)
        let first: ServerFrame
        do {
            first = try WireCodec.decodeServerFrame(payload)
        } catch {
            checkUndecodable(error, "ServerFrame")
            return
        }
        _ = first.endsCall
        var encoded: [UInt8] = []
        WireCodec.append(first, to: &encoded)
        let second: ServerFrame
        do {
            second = try WireCodec.decodeServerFrame(onlyFrame(in: encoded))
        } catch {
            fail("a re-encoded ServerFrame does not decode: \(error); frame: \(short(first))")
        }
        // A value holding NaN is not equal to itself: compare values only when two separate decodes
        // (separate storage, so no identity shortcut) are equal. The bytes are compared regardless.
        // The generated value keeps the field numbers of unknown fields, which are never encoded: the
        // value is compared from the first re-encoding on, and the model's view (the stream item the
        // client reads) from the start.
        let third = try? WireCodec.decodeServerFrame(onlyFrame(in: encoded))
        var again: [UInt8] = []
        WireCodec.append(second, to: &again)
        check(again == encoded, "ServerFrame re-encoding is not stable: \(short(first))")
        let fourth = try? WireCodec.decodeServerFrame(onlyFrame(in: again))
        check(second != third || second == fourth, "ServerFrame round trip changed the value: \(short(second)) became \(short(fourth))")
        if second == third, case .streamItem(let before)? = first.response, case .streamItem(let after)? = second.response,
           let item = try? StreamItem(proto: before) {
            check((try? StreamItem(proto: after)) == item, "ServerFrame round trip changed the stream item: \(short(first)) became \(short(second))")
        }
    }

    /// The generated strict reader takes only bytes protobuf-c (the codec of record) reads the same:
    /// when it takes `payload`, protobuf-c must too, to a message of the same encoding (compared as
    /// bytes: NaN != NaN).
    static func checkStrictReading<Message: ProtoMessage>(_ type: Message.Type, _ payload: ArraySlice<UInt8>) {
        payload.withUnsafeBufferPointer { bytes in
            var reader = ProtoReader(bytes)
            guard let strict = Message(strict: &reader) else { return }
            guard let reference = Message.unpacked(bytes) else {
                fail("the strict reader took a \(Message.self) protobuf-c refuses: \(Array(bytes.prefix(64)))")
            }
            check(strict.encoded() == reference.encoded(), "the strict reader read a \(Message.self) unlike protobuf-c: \(Array(bytes.prefix(64)))")
        }
    }

    /// The message bytes of the single frame `encoded` must hold (the codec's own output).
    static func onlyFrame(in encoded: [UInt8]) -> ArraySlice<UInt8> {
        var decoder = FrameDecoder(maxFrameBytes: Int(UInt32.max))
        decoder.append(contentsOf: encoded)
        do {
            guard let frame = try decoder.nextFrame() else { fail("the codec wrote an incomplete frame") }
            check(decoder.bufferedByteCount == 0, "the codec wrote bytes after its frame")
            return frame
        } catch {
            fail("the codec wrote a frame the decoder refuses: \(error)")
        }
    }

    /// The start of `value`'s description, for failure messages (frames can be large).
    static func short(_ value: some Any) -> String {
        let description = String(describing: value)
        return description.count > 2_000 ? description.prefix(2_000) + "…" : description
    }

    /// A decode failure must be the codec's own protocol error.
    static func checkUndecodable(_ error: BrokerError, _ typeName: String) {
        check(
            error.code == .invalidArgument && error.domain == .protocolError && error.message == "undecodable \(typeName)",
            "decoding a \(typeName) failed with an unexpected error: \(error)")
    }

    /// Traps with `message` unless `condition` holds (in every build configuration).
    @inline(__always)
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Traps: a property the codec promises does not hold.
    static func fail(_ message: String) -> Never {
        fatalError("FrameFuzzer: \(message)")
    }
}
