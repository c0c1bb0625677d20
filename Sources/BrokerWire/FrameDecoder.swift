public import BrokerModel

/// Reassembles frames from a byte stream: append bytes as they arrive, then take complete frames;
/// or hand each read to `receive`, which takes whole frames in place and keeps only what is left.
///
/// Bytes are kept in one growing buffer with a read index; consumed bytes are dropped lazily, at the
/// next `append`, and only once they are at least as many as the bytes still waiting, so the cost of
/// moving the tail is amortised over the bytes consumed (no memmove per frame).
///
/// The slices `nextFrame()` returns share the decoder's storage: decode them and drop them before the
/// next `append`, or that append has to copy the whole buffer.
///
/// After `nextFrame()` throws, the decoder is stuck on the bad header and throws the same error
/// again: the connection is expected to close.
public struct FrameDecoder: Sendable {
    /// The size of a frame header in bytes: one flags byte and a 4-byte length.
    public static let headerSize = 5

    /// Above this capacity an emptied buffer is released rather than kept for reuse, so that one
    /// large frame does not pin megabytes to an idle connection.
    static let retainedCapacityLimit = 256 * 1024

    /// The largest message length, in bytes, a frame may declare.
    public let maxFrameBytes: Int

    private var storage: [UInt8] = []
    private var readIndex = 0

    /// Creates an empty decoder that refuses frames longer than `maxFrameBytes`.
    public init(maxFrameBytes: Int) {
        precondition(maxFrameBytes >= 0, "maxFrameBytes must not be negative")
        self.maxFrameBytes = maxFrameBytes
    }

    /// Bytes received but not yet returned as frames (including a partial frame's).
    public var bufferedByteCount: Int { storage.count - readIndex }

    /// The size of the internal buffer, consumed bytes included; for tests of compaction.
    var storageByteCount: Int { storage.count }

    /// Adds bytes read from the connection.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        compact()
        bytes.withMemoryRebound(to: UInt8.self) { storage.append(contentsOf: $0) }
    }

    /// Adds bytes read from the connection.
    public mutating func append(contentsOf bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        compact()
        storage.append(contentsOf: bytes)
    }

    /// Returns the next complete frame's message bytes (without the header), or nil until more bytes arrive.
    ///
    /// Throws `INVALID_ARGUMENT` (protocol error) for a non-zero flags byte, and `RESOURCE_EXHAUSTED`
    /// (protocol error) as soon as a header declares more than `maxFrameBytes`, before its body arrives.
    public mutating func nextFrame() throws(BrokerError) -> ArraySlice<UInt8>? {
        let available = storage.count - readIndex
        guard available >= Self.headerSize else { return nil }
        let length = try storage.withUnsafeBufferPointer { bytes throws(BrokerError) in
            try messageLength(header: UnsafeBufferPointer(rebasing: bytes[readIndex..<readIndex + Self.headerSize]))
        }
        guard available - Self.headerSize >= length else { return nil }
        let start = readIndex + Self.headerSize
        readIndex = start + length
        return storage[start..<readIndex]
    }

    /// Hands `body` each whole frame's message bytes that `bytes` completes, in order, and keeps the
    /// rest (a partial frame, or the frames after one `body` declined) for later calls.
    ///
    /// When nothing is buffered, which is the usual case for a connection that reads whole frames,
    /// the frames are handed straight from `bytes`: nothing is copied and only a partial frame at the
    /// end is kept. Otherwise `bytes` is appended and the frames come from the buffer, as `nextFrame()`
    /// would give them. The message bytes are valid only inside `body`.
    ///
    /// `body` returns false to take no more frames now: the rest stays buffered for `nextFrame()`.
    /// A bad header throws as in `nextFrame()` and stays buffered, so `nextFrame()` throws the same
    /// again; an error `body` throws ends the call with the frames after its one kept.
    public mutating func receive(
        _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) throws(BrokerError) -> Bool
    ) throws(BrokerError) {
        guard !bytes.isEmpty else { return }
        guard bufferedByteCount == 0 else {
            append(bytes)
            while let frame = try nextFrame() {
                guard try frame.withUnsafeBufferPointer({ message throws(BrokerError) in try body(message) }) else { return }
            }
            return
        }
        let all = bytes.assumingMemoryBound(to: UInt8.self)
        var offset = 0
        defer { append(UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
        while all.count - offset >= Self.headerSize {
            let length = try messageLength(header: UnsafeBufferPointer(rebasing: all[offset..<offset + Self.headerSize]))
            let start = offset + Self.headerSize
            guard all.count - start >= length else { return }
            offset = start + length
            guard try body(UnsafeBufferPointer(rebasing: all[start..<offset])) else { return }
        }
    }

    /// The first bytes an HTTP/2 client sends (its connection preface, RFC 9113 §3.4), as far as a frame header reaches.
    static let http2PrefacePrefix = Array("PRI *".utf8)

    /// The error for a connection that opened with HTTP/2's preface: a gRPC client, most likely.
    public static let http2Refusal = BrokerError(
        code: .unimplemented, domain: .protocolError,
        message: "this is HealthBroker's own framing, not gRPC over HTTP/2 (the HTTP/2 connection preface was received); see docs/PROTOCOL.md")

    /// Whether the first bytes of the connection were HTTP/2's preface (nothing was taken yet).
    public var startsWithHTTP2Preface: Bool {
        readIndex == 0 && storage.count >= Self.headerSize && storage.prefix(Self.headerSize).elementsEqual(Self.http2PrefacePrefix)
    }

    /// The message length a 5-byte frame header declares, checked: flags 0 and at most `maxFrameBytes`.
    @inline(__always)
    private func messageLength(header: UnsafeBufferPointer<UInt8>) throws(BrokerError) -> Int {
        let flags = header[0]
        guard flags == 0 else {
            if header.elementsEqual(Self.http2PrefacePrefix) { throw Self.http2Refusal }
            throw BrokerError(code: .invalidArgument, domain: .protocolError, message: "frame flags byte is \(flags), expected 0")
        }
        let length = Int(header[1]) << 24 | Int(header[2]) << 16 | Int(header[3]) << 8 | Int(header[4])
        guard length <= maxFrameBytes else {
            throw BrokerError(
                code: .resourceExhausted, domain: .protocolError,
                message: "frame of \(length) bytes exceeds the limit of \(maxFrameBytes) bytes")
        }
        return length
    }

    /// Drops consumed bytes when that is cheap relative to what was consumed.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == storage.count {
            if storage.capacity > Self.retainedCapacityLimit {
                storage = []
            } else {
                storage.removeAll(keepingCapacity: true)
            }
            readIndex = 0
        } else if readIndex >= storage.count - readIndex {
            storage.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
