/// The types the broker knows, by HealthKit identifier.
public enum TypeCatalogue {
    /// Every known type, in the order of `ObjectType`'s constants.
    public static let all: [TypeDescriptor] = [
        TypeDescriptor(type: .stepCount, kind: .quantity, aggregation: .cumulative, dimension: .count),
        TypeDescriptor(type: .heartRate, kind: .quantity, aggregation: .discrete, dimension: .countPerTime),
        TypeDescriptor(type: .restingHeartRate, kind: .quantity, aggregation: .discrete, dimension: .countPerTime),
        TypeDescriptor(type: .activeEnergyBurned, kind: .quantity, aggregation: .cumulative, dimension: .energy),
        TypeDescriptor(type: .basalEnergyBurned, kind: .quantity, aggregation: .cumulative, dimension: .energy),
        TypeDescriptor(type: .distanceWalkingRunning, kind: .quantity, aggregation: .cumulative, dimension: .length),
        TypeDescriptor(type: .flightsClimbed, kind: .quantity, aggregation: .cumulative, dimension: .count),
        TypeDescriptor(type: .bodyMass, kind: .quantity, aggregation: .discrete, dimension: .mass),
        TypeDescriptor(type: .bodyFatPercentage, kind: .quantity, aggregation: .discrete, dimension: .percent),
        TypeDescriptor(type: .oxygenSaturation, kind: .quantity, aggregation: .discrete, dimension: .percent),
        TypeDescriptor(type: .sleepAnalysis, kind: .category, aggregation: .none, dimension: .none),
        TypeDescriptor(type: .mindfulSession, kind: .category, aggregation: .none, dimension: .none),
        TypeDescriptor(type: .workout, kind: .workout, aggregation: .none, dimension: .none),
        TypeDescriptor(type: .dateOfBirth, kind: .characteristic, aggregation: .none, dimension: .none),
        TypeDescriptor(type: .biologicalSex, kind: .characteristic, aggregation: .none, dimension: .none),
        TypeDescriptor(type: .bloodType, kind: .characteristic, aggregation: .none, dimension: .none),
    ]

    private static let byType: [ObjectType: TypeDescriptor] = Dictionary(
        all.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })

    /// The descriptor of a known type; nil for an unknown identifier.
    public static func descriptor(for type: ObjectType) -> TypeDescriptor? {
        byType[type]
    }

    /// Looks every type up, in order; any unknown identifier is INVALID_ARGUMENT naming `field` and each unknown one.
    public static func validate(_ types: [ObjectType], field: String) throws(BrokerError) -> [TypeDescriptor] {
        var descriptors: [TypeDescriptor] = []
        descriptors.reserveCapacity(types.count)
        for type in types {
            if let descriptor = byType[type] { descriptors.append(descriptor) }
        }
        if descriptors.count != types.count {
            throw .invalidArgument(unknownMessage(unknownIdentifiers(in: types), field: field))
        }
        return descriptors
    }

    /// The unknown identifiers among `types`, each once, in order of first appearance.
    static func unknownIdentifiers(in types: [ObjectType]) -> [ObjectType] {
        var seen = Set<ObjectType>()
        return types.filter { byType[$0] == nil && seen.insert($0).inserted }
    }

    /// "unknown type identifier(s) in FIELD: "A", "B"".
    static func unknownMessage(_ unknown: [ObjectType], field: String) -> String {
        let noun = unknown.count == 1 ? "identifier" : "identifiers"
        return "unknown type \(noun) in \(field): \(TypeNames.quoted(unknown))"
    }
}
