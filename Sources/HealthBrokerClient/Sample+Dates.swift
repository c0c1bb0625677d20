public import Foundation
import BrokerModel

/// `Date` conveniences for samples; each initialiser's `uuid` defaults to a fresh time-ordered UUID (`SampleUUID`).
extension Sample {
    /// A quantity sample of `type` (steps, heart rate, …) from `start` to `end`.
    public init(type: ObjectType, quantity: Quantity, start: Date, end: Date, metadata: [String: String] = [:], uuid: String = SampleUUID.make()) {
        self.init(uuid: uuid, type: type, startMicros: start.microsecondsSince1970, endMicros: end.microsecondsSince1970, value: .quantity(quantity), metadata: metadata)
    }

    /// A category sample of `type` (e.g. a sleep stage as `HKCategoryValueSleepAnalysis`) from `start` to `end`.
    public init(type: ObjectType, categoryValue: Int64, start: Date, end: Date, metadata: [String: String] = [:], uuid: String = SampleUUID.make()) {
        self.init(uuid: uuid, type: type, startMicros: start.microsecondsSince1970, endMicros: end.microsecondsSince1970, value: .category(categoryValue), metadata: metadata)
    }

    /// A workout sample (type `.workout`) from `start` to `end`.
    public init(workout: WorkoutDetails, start: Date, end: Date, metadata: [String: String] = [:], uuid: String = SampleUUID.make()) {
        self.init(uuid: uuid, type: .workout, startMicros: start.microsecondsSince1970, endMicros: end.microsecondsSince1970, value: .workout(workout), metadata: metadata)
    }

    /// A correlation of `type` (`.bloodPressure`, `.food`) holding `objects`, samples of its member
    /// types within `start` … `end` (HKCorrelation's `init(type:start:end:objects:metadata:)`).
    public init(correlation type: ObjectType, objects: [Sample], start: Date, end: Date, metadata: [String: String] = [:], uuid: String = SampleUUID.make()) {
        self.init(uuid: uuid, type: type, startMicros: start.microsecondsSince1970, endMicros: end.microsecondsSince1970, value: .correlation(objects), metadata: metadata)
    }

    /// A correlation's objects (the ones the reader may see, on reads); empty for other samples.
    public var objects: [Sample] {
        if case .correlation(let objects) = value { objects } else { [] }
    }

    /// When the sample starts.
    public var startDate: Date { Date(microsecondsSince1970: startMicros) }

    /// When the sample ends.
    public var endDate: Date { Date(microsecondsSince1970: endMicros) }

    /// When the broker stored it (set on reads; the epoch on a sample not read from the broker).
    public var createdDate: Date { Date(microsecondsSince1970: createdMicros) }
}
