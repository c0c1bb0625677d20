import BrokerCore

/// A sample's canonical content as stored: its value columns, metadata text, canonical encoding and hash.
///
/// Two samples have the same content exactly when their encodings are byte-for-byte equal: the
/// same type, dates, value (quantities by bit pattern, −0 read as 0; strings by UTF-8 bytes),
/// metadata and source app. The hash is two 64-bit FNV-1a passes over the encoding with different
/// offset bases, 16 bytes; it is a quick inequality test, the encoding settles equality.
struct SampleContent {
    /// `samples.value_kind`: 1 quantity, 2 category, 3 workout.
    let kind: Int64
    /// The canonical quantity (quantity samples).
    let quantity: Double?
    /// The quantity's (canonical) unit.
    let unit: String?
    /// The category value (category samples).
    let category: Int64?
    /// The workout activity (workouts).
    let activity: String?
    /// The workout duration (workouts).
    let durationMicros: Int64?
    /// The workout energy in kcal, if known.
    let energyKcal: Double?
    /// The workout distance in metres, if known.
    let distanceMeters: Double?
    /// The metadata as stored (`MetadataText`).
    let metadata: String
    /// The type's identifier, the dates and the source app: the rest of what the encoding covers.
    let typeIdentifier: String
    let startMicros: Int64
    let endMicros: Int64
    let sourceAppID: String
    /// The two FNV-1a words of the encoding (`hash` is them big-endian).
    private(set) var hashWords: (UInt64, UInt64) = (0, 0)

    /// Value kinds as stored.
    static let quantityKind: Int64 = 1
    static let categoryKind: Int64 = 2
    static let workoutKind: Int64 = 3

    /// The canonical content of `sample` as saved by `sourceAppID`; a value the store cannot keep
    /// exactly (non-finite, a workout energy not in kcal or distance not in m) is `INVALID_ARGUMENT`.
    init(_ sample: Sample, sourceAppID: String) throws(BrokerError) {
        var quantity: Double?
        var unit: String?
        var category: Int64?
        var activity: String?
        var duration: Int64?
        var energy: Double?
        var distance: Double?
        switch sample.value {
        case .quantity(let value):
            kind = Self.quantityKind
            quantity = try Self.finite(value.value, "quantity")
            unit = value.unit
        case .category(let value):
            kind = Self.categoryKind
            category = value
        case .workout(let details):
            kind = Self.workoutKind
            activity = details.activityType
            duration = details.durationMicros
            if let total = details.totalEnergy {
                guard total.unit == "kcal" else { throw .invalidArgument("workout energy is not in kcal (the canonical unit)") }
                energy = try Self.finite(total.value, "workout energy")
            }
            if let total = details.totalDistance {
                guard total.unit == "m" else { throw .invalidArgument("workout distance is not in m (the canonical unit)") }
                distance = try Self.finite(total.value, "workout distance")
            }
        }
        self.quantity = quantity
        self.unit = unit
        self.category = category
        self.activity = activity
        self.durationMicros = duration
        self.energyKcal = energy
        self.distanceMeters = distance
        metadata = MetadataText.encode(sample.metadata)
        typeIdentifier = sample.type.identifier
        startMicros = sample.startMicros
        endMicros = sample.endMicros
        self.sourceAppID = sourceAppID
        var hasher = ContentHasher()
        write(to: &hasher)
        hashWords = (hasher.first, hasher.second)
    }

    /// The canonical encoding: type, dates, kind, the kind's value fields, metadata and source app,
    /// each length-prefixed or fixed-width little-endian. Built on demand (equality checks, tests);
    /// a save hashes it as it goes instead.
    var encoding: [UInt8] {
        var collector = ByteCollector()
        collector.bytes.reserveCapacity(96 + typeIdentifier.utf8.count + metadata.utf8.count + sourceAppID.utf8.count)
        write(to: &collector)
        return collector.bytes
    }

    /// The 16-byte content hash of `encoding`: FNV-1a from two offset bases, each big-endian.
    var hash: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 16) { buffer, count in
            withHashBytes { bytes in
                for index in 0..<16 { buffer[index] = bytes[index] }
            }
            count = 16
        }
    }

    /// Calls `body` with the 16 hash bytes (no allocation: binding it costs SQLite's copy only).
    func withHashBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let words = (hashWords.0.bigEndian, hashWords.1.bigEndian)
        return try withUnsafeBytes(of: words) { (bytes) throws(E) -> R in try body(bytes) }
    }

    /// Feeds the canonical encoding to `sink`, field by field.
    private func write<Sink: ContentSink>(to sink: inout Sink) {
        sink.append(typeIdentifier)
        sink.append(startMicros)
        sink.append(endMicros)
        sink.append(kind)
        switch kind {
        case Self.quantityKind:
            sink.append(quantity ?? 0)
            sink.append(unit ?? "")
        case Self.categoryKind:
            sink.append(category ?? 0)
        default:
            sink.append(activity ?? "")
            sink.append(durationMicros ?? 0)
            sink.append(optional: energyKcal)
            sink.append(optional: distanceMeters)
        }
        sink.append(metadata)
        sink.append(sourceAppID)
    }

    /// `value` with −0 made +0 (SQLite stores both as 0); non-finite values are `INVALID_ARGUMENT`.
    private static func finite(_ value: Double, _ field: String) throws(BrokerError) -> Double {
        guard value.isFinite else { throw .invalidArgument("\(field) is not a finite number") }
        return value == 0 ? 0 : value
    }

}

/// Where the canonical encoding goes, a byte at a time or a run at once.
private protocol ContentSink {
    /// Takes bytes in order.
    mutating func take(_ bytes: UnsafeRawBufferPointer)
    /// Takes one byte.
    mutating func take(_ byte: UInt8)
}

extension ContentSink {
    /// Eight bytes, little-endian.
    mutating func append(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { take($0) }
    }

    /// The IEEE 754 bit pattern.
    mutating func append(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { take($0) }
    }

    /// A presence byte, then the value.
    mutating func append(optional value: Double?) {
        if let value {
            take(1)
            append(value)
        } else {
            take(0)
        }
    }

    /// The UTF-8 length, then the UTF-8 bytes.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(Int64(utf8.count))
            take(UnsafeRawBufferPointer(utf8))
        }
    }
}

/// Collects the encoding's bytes.
private struct ByteCollector: ContentSink {
    var bytes: [UInt8] = []

    mutating func take(_ bytes: UnsafeRawBufferPointer) { self.bytes.append(contentsOf: bytes) }
    mutating func take(_ byte: UInt8) { bytes.append(byte) }
}

/// Two 64-bit FNV-1a passes (different offset bases) over the encoding, as it is written.
private struct ContentHasher: ContentSink {
    var first: UInt64 = 0xcbf2_9ce4_8422_2325
    var second: UInt64 = 0x8422_2325_cbf2_9ce4

    mutating func take(_ bytes: UnsafeRawBufferPointer) {
        var (first, second) = (self.first, self.second)
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        (self.first, self.second) = (first, second)
    }

    mutating func take(_ byte: UInt8) {
        first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
