import BrokerModel
import BrokerPolicy
import Foundation

/// Parses JSON sample lines (the `healthctl import` and `export` format) into samples.
///
/// One object per line: `uuid` (optional), `type`, `start` or `start_us`, `end` or `end_us`
/// (optional: the start), then `value` and `unit` | `category` | `workout` | `objects` (a
/// correlation's objects, each an object of the same form), and optional `metadata`.
/// `source` (written by `export`) becomes the sample's `sourceAppID`, which only
/// `import --keep-sources` uses; `created` is accepted and ignored.
struct JSONLineParser {
    /// The expected JSON type of each key, for error messages.
    static let expectations: [String: String] = [
        "uuid": "a string", "type": "a string", "start": "an ISO-8601 UTC string", "start_us": "an integer",
        "end": "an ISO-8601 UTC string", "end_us": "an integer", "value": "a number", "unit": "a string",
        "category": "an integer", "workout": "an object", "metadata": "an object of strings", "source": "a string",
        "activity": "a string", "duration_s": "a number", "energy_kcal": "a number", "distance_m": "a number",
        "objects": "an array of sample objects",
    ]

    private let decoder = JSONDecoder()

    /// The sample on `line`.
    func sample(from line: String) throws(SampleLineError) -> Sample {
        try SampleBuilder.sample(from: fields(from: line))
    }

    /// The fields of `line`, checked for shape but not yet for meaning.
    func fields(from line: String) throws(SampleLineError) -> SampleFields {
        let decoded: JSONSampleLine
        do {
            decoded = try decoder.decode(JSONSampleLine.self, from: Data(line.utf8))
        } catch let error as SampleLineError {
            throw error
        } catch let error as DecodingError {
            throw Self.explain(error)
        } catch {
            throw SampleLineError("not valid JSON")
        }
        return try Self.fields(from: decoded)
    }

    /// The fields of a decoded line: exactly one start, at most one end, exactly one value.
    static func fields(from line: JSONSampleLine) throws(SampleLineError) -> SampleFields {
        guard let type = line.type else { throw SampleLineError("missing \"type\"") }
        guard let start = try instant(line.start, line.startMicros, name: "start") else {
            throw SampleLineError("missing \"start\" (or \"start_us\")")
        }
        let end = try instant(line.end, line.endMicros, name: "end") ?? start
        let given = [line.value != nil, line.category != nil, line.workout != nil, line.objects != nil].filter { $0 }.count
        guard given == 1 else {
            throw SampleLineError(given == 0
                ? "missing the value: give \"value\" (and \"unit\"), \"category\", \"workout\" or \"objects\""
                : "give only one of \"value\", \"category\", \"workout\" and \"objects\"")
        }
        if line.unit != nil, line.value == nil { throw SampleLineError("\"unit\" is only for a \"value\"") }
        let value: SampleFields.Value
        if let number = line.value {
            value = .quantity(number, unit: line.unit)
        } else if let category = line.category {
            value = .category(category)
        } else if let workout = line.workout {
            value = .workout(activity: workout.activity, durationSeconds: workout.durationSeconds,
                             energyKcal: workout.energyKcal, distanceMeters: workout.distanceMeters)
        } else if let objects = line.objects {
            var fields: [SampleFields] = []
            for (index, object) in objects.enumerated() {
                do throws(SampleLineError) {
                    guard object.objects == nil else { throw SampleLineError("an object cannot hold objects of its own") }
                    fields.append(try Self.fields(from: object))
                } catch {
                    throw SampleLineError("objects[\(index)]: \(error.message)")
                }
            }
            value = .correlation(fields)
        } else {
            preconditionFailure("one value kind was counted")
        }
        return SampleFields(uuid: line.uuid, type: type, startMicros: start, endMicros: end, value: value,
                            metadata: line.metadata ?? [:], source: line.source)
    }

    /// The instant given as ISO-8601 text or as microseconds; both at once is an error.
    static func instant(_ text: String?, _ micros: Int64?, name: String) throws(SampleLineError) -> Int64? {
        switch (text, micros) {
        case (nil, nil): return nil
        case (_?, _?): throw SampleLineError("give \"\(name)\" or \"\(name)_us\", not both")
        case (nil, let micros?): return micros
        case (let text?, nil):
            guard let micros = ISODate.parse(text), text.count > 10 else {
                throw SampleLineError("\"\(name)\": '\(text)' is not an ISO-8601 UTC instant (YYYY-MM-DDTHH:MM:SS[.ffffff]Z)")
            }
            return micros
        }
    }

    /// A decoding error as one short sentence naming the field.
    static func explain(_ error: DecodingError) -> SampleLineError {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
            context = found
        case .keyNotFound(let key, let found):
            let path = (found.codingPath + [key]).map(\.stringValue)
            return SampleLineError("missing \"\(path.joined(separator: "."))\"")
        @unknown default:
            return SampleLineError("not a valid sample line")
        }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        guard let last = path.last else {
            return SampleLineError("not a JSON object (one sample per line)")
        }
        let expected = path.first == "metadata" && path.count > 1 ? "a string" : expectations[last] ?? "another value"
        return SampleLineError("\"\(path.joined(separator: "."))\": expected \(expected)")
    }
}
