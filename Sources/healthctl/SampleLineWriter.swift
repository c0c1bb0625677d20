import BrokerModel
import BrokerPolicy

/// Writes a sample as one JSON line of the import format (what `healthctl export` and `demo-data --output` print).
///
/// Keys in a fixed order: uuid, type, start, end, the value, metadata (when any), source (when known);
/// instants as ISO-8601 UTC with microseconds. `healthctl import` reads the line back unchanged.
enum SampleLineWriter {
    /// The line for `sample`, without a newline.
    static func line(for sample: Sample) -> String {
        var parts = [
            "\"uuid\": \(JSONText.string(sample.uuid))",
            "\"type\": \(JSONText.string(sample.type.identifier))",
            "\"start\": \"\(UTCTimestamp.string(micros: sample.startMicros, fractional: true))\"",
            "\"end\": \"\(UTCTimestamp.string(micros: sample.endMicros, fractional: true))\"",
        ]
        switch sample.value {
        case .quantity(let quantity):
            parts.append("\"value\": \(JSONText.number(quantity.value))")
            parts.append("\"unit\": \(JSONText.string(quantity.unit))")
        case .category(let value):
            parts.append("\"category\": \(value)")
        case .workout(let workout):
            parts.append("\"workout\": \(self.workout(workout))")
        case .correlation(let members):
            parts.append("\"objects\": [" + members.map(line(for:)).joined(separator: ", ") + "]")
        }
        if !sample.metadata.isEmpty { parts.append("\"metadata\": \(JSONText.object(sample.metadata))") }
        if !sample.sourceAppID.isEmpty { parts.append("\"source\": \(JSONText.string(sample.sourceAppID))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// `{"activity": …, "duration_s": …, "energy_kcal": …, "distance_m": …}` (energy and distance when known).
    static func workout(_ workout: WorkoutDetails) -> String {
        var parts = [
            "\"activity\": \(JSONText.string(workout.activityType))",
            "\"duration_s\": \(JSONText.number(Double(workout.durationMicros) / 1e6))",
        ]
        if let energy = workout.totalEnergy { parts.append("\"energy_kcal\": \(JSONText.number(kilocalories(energy)))") }
        if let distance = workout.totalDistance { parts.append("\"distance_m\": \(JSONText.number(meters(distance)))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// `energy` in kcal (the broker returns canonical kcal already; other units are converted).
    static func kilocalories(_ energy: Quantity) -> Double {
        energy.unit == "kcal" ? energy.value : (try? Units.toCanonical(energy, dimension: .energy)) ?? energy.value
    }

    /// `distance` in metres (the broker returns canonical metres already; other units are converted).
    static func meters(_ distance: Quantity) -> Double {
        distance.unit == "m" ? distance.value : (try? Units.toCanonical(distance, dimension: .length)) ?? distance.value
    }
}
