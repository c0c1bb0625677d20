/// The keys of one JSON sample line, decoded as written (checked later by `JSONLineParser`).
struct JSONSampleLine: Decodable {
    /// A JSON object key by name, so unknown keys can be named in errors.
    struct Key: CodingKey {
        /// The key's name.
        let stringValue: String
        /// Object keys have no integer form.
        var intValue: Int? { nil }
        /// The key named `stringValue`.
        init(stringValue: String) { self.stringValue = stringValue }
        /// Object keys have no integer form.
        init?(intValue: Int) { nil }
    }

    /// The keys a sample line may hold.
    static let knownKeys: Set<String> = [
        "uuid", "type", "start", "start_us", "end", "end_us", "value", "unit", "category", "workout", "metadata",
        "source", "created", "created_us", "objects",
    ]

    /// `"uuid"`.
    var uuid: String?
    /// `"type"`: identifier or alias.
    var type: String?
    /// `"start"`: ISO-8601 text.
    var start: String?
    /// `"start_us"`.
    var startMicros: Int64?
    /// `"end"`: ISO-8601 text.
    var end: String?
    /// `"end_us"`.
    var endMicros: Int64?
    /// `"value"`.
    var value: Double?
    /// `"unit"`.
    var unit: String?
    /// `"category"`.
    var category: Int64?
    /// `"workout"`.
    var workout: JSONWorkout?
    /// `"metadata"`.
    var metadata: [String: String]?
    /// `"source"`: the app that saved the sample (written by `export`; used by `import --keep-sources`).
    var source: String?
    /// `"objects"`: a correlation's objects, each a sample line of its own.
    var objects: [JSONSampleLine]?

    /// Decodes the known keys; an unknown key is an error naming it.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if let unknown = container.allKeys.map(\.stringValue).filter({ !Self.knownKeys.contains($0) }).sorted().first {
            throw SampleLineError("unknown field \"\(unknown)\"")
        }
        func field<T: Decodable>(_ name: String) throws -> T? {
            try container.decodeIfPresent(T.self, forKey: Key(stringValue: name))
        }
        func integer(_ name: String) throws -> Int64? {
            do {
                return try field(name)
            } catch {
                // A fractional or huge number is reported as corrupt data without a path: name the field.
                if (try? container.decodeIfPresent(Double.self, forKey: Key(stringValue: name))) != nil {
                    throw SampleLineError("\"\(name)\": expected an integer")
                }
                throw error
            }
        }
        uuid = try field("uuid")
        type = try field("type")
        start = try field("start")
        startMicros = try integer("start_us")
        end = try field("end")
        endMicros = try integer("end_us")
        value = try field("value")
        unit = try field("unit")
        category = try integer("category")
        workout = try field("workout")
        metadata = try field("metadata")
        source = try field("source")
        objects = try field("objects")
    }
}

/// The `"workout"` object of a JSON sample line.
struct JSONWorkout: Decodable {
    /// The JSON keys.
    enum CodingKeys: String, CodingKey {
        case activity, durationSeconds = "duration_s", energyKcal = "energy_kcal", distanceMeters = "distance_m"
    }

    /// `"activity"` (required).
    var activity: String
    /// `"duration_s"`.
    var durationSeconds: Double?
    /// `"energy_kcal"`.
    var energyKcal: Double?
    /// `"distance_m"`.
    var distanceMeters: Double?
}
