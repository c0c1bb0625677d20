import BrokerModel

/// A sample's canonical content as stored: its value columns and metadata text, and with the sample its canonical encoding.
///
/// Two samples have the same content exactly when their encodings are byte-for-byte equal: the
/// same type, dates, value (quantities by bit pattern, −0 read as 0; strings by UTF-8 bytes),
/// metadata and source app. The encoding is built only when a save meets a stored uuid.
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
    /// The uuid's 16 bytes as `StoredUUID` keeps them, or nil when it is kept as text.
    let uuidWords: (UInt64, UInt64)?

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
        case .correlation:
            // A save keeps a correlation in `correlations` and its members as rows of their own.
            throw .invalidArgument("a correlation is not stored as a sample row")
        }
        self.quantity = quantity
        self.unit = unit
        self.category = category
        self.activity = activity
        self.durationMicros = duration
        self.energyKcal = energy
        self.distanceMeters = distance
        metadata = MetadataText.encode(sample.metadata)
        uuidWords = StoredUUID.words(sample.uuid)
    }

    /// The canonical encoding of this content as `sample`'s (the one it was made from) saved by
    /// `sourceAppID`: type, dates, kind, the kind's value fields, metadata and source app, each
    /// length-prefixed or fixed-width little-endian. Built only when a save meets a stored uuid.
    func encoding(of sample: Sample, sourceAppID: String) -> [UInt8] {
        let typeIdentifier = sample.type.identifier
        var writer = Encoder()
        writer.bytes.reserveCapacity(96 + typeIdentifier.utf8.count + metadata.utf8.count + sourceAppID.utf8.count)
        writer.append(typeIdentifier)
        writer.append(sample.startMicros)
        writer.append(sample.endMicros)
        writer.append(kind)
        switch kind {
        case Self.quantityKind:
            writer.append(quantity ?? 0)
            writer.append(unit ?? "")
        case Self.categoryKind:
            writer.append(category ?? 0)
        default:
            writer.append(activity ?? "")
            writer.append(durationMicros ?? 0)
            writer.append(optional: energyKcal)
            writer.append(optional: distanceMeters)
        }
        writer.append(metadata)
        writer.append(sourceAppID)
        return writer.bytes
    }

    /// `value` with −0 made +0 (SQLite stores both as 0); non-finite values are `INVALID_ARGUMENT`.
    private static func finite(_ value: Double, _ field: String) throws(BrokerError) -> Double {
        guard value.isFinite else { throw .invalidArgument("\(field) is not a finite number") }
        return value == 0 ? 0 : value
    }

    /// Length-prefixed little-endian field writer for the canonical encoding.
    private struct Encoder {
        var bytes: [UInt8] = []

        /// Eight bytes, little-endian.
        mutating func append(_ value: Int64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        /// The IEEE 754 bit pattern.
        mutating func append(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        /// A presence byte, then the value.
        mutating func append(optional value: Double?) {
            if let value {
                bytes.append(1)
                append(value)
            } else {
                bytes.append(0)
            }
        }

        /// The UTF-8 length, then the UTF-8 bytes.
        mutating func append(_ text: String) {
            append(Int64(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        }
    }
}
