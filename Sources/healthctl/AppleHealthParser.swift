import BrokerModel
import BrokerPolicy
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an Apple Health `export.xml` as a SAX stream (libxml2 under Foundation's XMLParser) and
/// hands out batches of checked samples as it goes: memory stays bounded by one batch, whatever
/// the file's size.
///
/// Records (quantity and category types), Correlations (kept as correlations of their Records), Workouts (with
/// duration, distance and energy, from attributes or WorkoutStatistics) and the Me element's
/// characteristics are read; everything else is counted in `counts`, never silently dropped.
final class AppleHealthParser: NSObject, XMLParserDelegate {
    /// What was read, for the summary.
    private(set) var counts = AppleHealthCounts()
    /// The parse error, with its line, when the XML is not well formed.
    private(set) var failure: String?
    private let batchSize: Int
    private let deliver: (AppleHealthChunk) -> Void
    private var chunk = AppleHealthChunk(batch: ImportBatch())
    private var seen: [String: Int] = [:]
    private var sourceIDs: [String: String] = [:]
    private var categoryNames: [String: [String: Int64]] = [:]
    private var depth = 0
    /// Whether `</HealthData>` was read: XMLParser on Linux accepts a stream that just stops.
    private var sawEnd = false
    private var pendingRecord: [String: String]?
    private var pendingWorkout: [String: String]?
    private var workoutStatistics: [String: (sum: String, unit: String)] = [:]
    private var metadata: [String: String] = [:]
    /// The Correlation being read: its attributes, metadata and the member samples read so far.
    private var pendingCorrelation: (attributes: [String: String], metadata: [String: String], members: [Sample])?
    /// Objects of the correlations in the batch being built: the broker's batch limit counts them too.
    private var batchedMembers = 0

    /// A record's uuid: derived from its content alone (so an export imports once), and time-ordered
    /// like HealthStore's version 7 uuids, which the broker's uuid index takes far faster than
    /// random ones. RFC 9562 version 8 layout: 48 bits of the start's Unix milliseconds, then 74 bits
    /// of SHA-1(namespace, content).
    static func uuid(startMicros: Int64, content: String) -> String {
        var input = namespace
        input.append(contentsOf: content.utf8)
        var bytes = SHA1.digest(input)
        bytes.removeLast(4)
        let millis = UInt64(max(0, startMicros / 1_000))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> UInt64(40 - 8 * index)) }
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return SampleUUID.format(bytes)
    }

    /// The namespace of uuids derived from an export's records.
    static let namespace: [UInt8] = SampleUUID.bytes(of: "6b1f2c3d-8e4a-4f5b-9c6d-7e8f9a0b1c2d")!

    /// A parser handing out batches of up to `batchSize` samples to `deliver` (called on the parsing thread).
    init(batchSize: Int, deliver: @escaping (AppleHealthChunk) -> Void) {
        self.batchSize = batchSize
        self.deliver = deliver
    }

    /// Parses the whole stream; the last (partial) batch is delivered too. False on an XML error (see `failure`).
    @discardableResult
    func parse(_ stream: InputStream) -> Bool {
        run(XMLParser(stream: DoctypeStrippingStream(stream)))
    }

    /// Parses `data` (tests and small files).
    @discardableResult
    func parse(_ data: Data) -> Bool {
        run(XMLParser(stream: DoctypeStrippingStream(InputStream(data: data))))
    }

    private func run(_ parser: XMLParser) -> Bool {
        parser.delegate = self
        parser.shouldResolveExternalEntities = false
        var ok = parser.parse()
        if !ok {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            failure = "XML error at line \(parser.lineNumber), column \(parser.columnNumber): \(reason)"
        } else if !sawEnd {
            ok = false
            failure = "the export ends before </HealthData> (line \(parser.lineNumber)): is the file complete?"
        }
        flush()
        return ok
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        switch elementName {
        case "Record":
            pendingRecord = attributes
            metadata = [:]
        case "MetadataEntry":
            if pendingRecord != nil || pendingWorkout != nil, let key = attributes["key"], let value = attributes["value"] {
                metadata[key] = value
            } else if pendingCorrelation != nil, let key = attributes["key"], let value = attributes["value"] {
                pendingCorrelation?.metadata[key] = value
            }
        case "Correlation":
            counts.correlations += 1
            pendingCorrelation = (attributes, [:], [])
        case "Workout":
            pendingWorkout = attributes
            workoutStatistics = [:]
            metadata = [:]
        case "WorkoutStatistics":
            if pendingWorkout != nil, let type = attributes["type"], let sum = attributes["sum"] {
                workoutStatistics[type] = (sum, attributes["unit"] ?? "")
            }
        case "Me":
            me(attributes)
        case "HealthData", "ExportDate":
            break
        default:
            // A child of a record or workout (WorkoutEvent, WorkoutRoute, beat lists) is part of
            // what was read; only whole elements under HealthData are reported as not imported.
            if depth == 2 { counts.skippedElements[elementName, default: 0] += 1 }
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        switch elementName {
        case "Record":
            if let attributes = pendingRecord { record(attributes) }
            pendingRecord = nil
        case "Correlation":
            if let pending = pendingCorrelation { correlation(pending.attributes, metadata: pending.metadata, members: pending.members) }
            pendingCorrelation = nil
        case "HealthData":
            sawEnd = true
        case "Workout":
            if let attributes = pendingWorkout { workout(attributes) }
            pendingWorkout = nil
        default:
            break
        }
    }

    // MARK: Elements

    /// One Record: a quantity or category sample, or a count under its unknown type.
    func record(_ attributes: [String: String]) {
        counts.records += 1
        let typeID = attributes["type"] ?? ""
        let type = ObjectType(typeID)
        guard let descriptor = TypeCatalogue.descriptor(for: type), descriptor.kind == .quantity || descriptor.kind == .category else {
            counts.unknownTypes[typeID.isEmpty ? "(no type)" : typeID, default: 0] += 1
            return
        }
        let valueText = attributes["value"] ?? ""
        let unitText = attributes["unit"] ?? ""
        let value: SampleValue
        if descriptor.kind == .quantity {
            guard let number = Double(valueText) else { return invalid(typeID, "value \"\(valueText)\" is not a number") }
            value = .quantity(Quantity(number, unitText.isEmpty ? descriptor.canonicalUnit : unitText))
        } else {
            guard let raw = categoryValue(valueText, of: type) else {
                return invalid(typeID, "\"\(valueText)\" is not a value of \(typeID)")
            }
            value = .category(raw)
        }
        add(type: type, typeID: typeID, attributes: attributes, value: value, content: [valueText, unitText])
    }

    /// One Workout, with its totals from attributes or else from its WorkoutStatistics.
    func workout(_ attributes: [String: String]) {
        counts.records += 1
        counts.workouts += 1
        let typeID = ObjectType.workout.identifier
        guard let start = attributes["startDate"].flatMap(AppleHealthDate.micros),
              let end = attributes["endDate"].flatMap(AppleHealthDate.micros)
        else { return invalid(typeID, "startDate or endDate is not YYYY-MM-DD HH:MM:SS ±HHMM") }
        var activity = attributes["workoutActivityType"] ?? ""
        if activity.hasPrefix("HKWorkoutActivityType") { activity.removeFirst("HKWorkoutActivityType".count) }
        if let first = activity.first { activity = first.lowercased() + activity.dropFirst() }
        var duration = Double(end - start)
        if let text = attributes["duration"], let number = Double(text) {
            let unit = attributes["durationUnit"] ?? "min"
            guard let converter = try? UnitConverter(unit, dimension: .time, canonicalUnit: "s") else {
                return invalid(typeID, "duration unit \"\(unit)\" is not a time unit")
            }
            // Apple rounds durations in decimal minutes; never longer than the workout's span.
            duration = min(duration, (converter.toCanonical(number) * 1e6).rounded())
        }
        let energy = total(attributes["totalEnergyBurned"], attributes["totalEnergyBurnedUnit"], statistics: ["HKQuantityTypeIdentifierActiveEnergyBurned"])
        let distance = total(
            attributes["totalDistance"], attributes["totalDistanceUnit"],
            statistics: ["HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierDistanceCycling",
                         "HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierDistanceWheelchair",
                         "HKQuantityTypeIdentifierDistanceDownhillSnowSports"])
        let details = WorkoutDetails(activityType: activity, durationMicros: Int64(max(0, duration)), totalEnergy: energy, totalDistance: distance)
        let content = [activity, String(details.durationMicros),
                       energy.map { "\($0.value) \($0.unit)" } ?? "-", distance.map { "\($0.value) \($0.unit)" } ?? "-"]
        add(type: .workout, typeID: typeID, attributes: attributes, value: .workout(details), content: content)
    }

    /// A workout total: the attribute when given, else the sum of the first WorkoutStatistics of `statistics`.
    private func total(_ value: String?, _ unit: String?, statistics: [String]) -> Quantity? {
        if let value, let number = Double(value) { return Quantity(number, unit ?? "") }
        for type in statistics {
            if let entry = workoutStatistics[type], let number = Double(entry.sum) { return Quantity(number, entry.unit) }
        }
        return nil
    }

    /// The Me element: each characteristic with a value (not "NotSet", not empty).
    func me(_ attributes: [String: String]) {
        for (key, text) in attributes.sorted(by: { $0.key < $1.key }) {
            guard let value = Self.characteristicValue(key: key, text) else {
                if !text.isEmpty, !text.hasSuffix("NotSet") { counts.skippedElements["Me \(key)", default: 0] += 1 }
                continue
            }
            counts.characteristics.append((key, value))
        }
    }

    /// The broker's value of a Me attribute (`HKBloodTypeABNegative` → `AB-`); nil when not set or not known.
    static func characteristicValue(key: String, _ text: String) -> String? {
        guard !text.isEmpty, !text.hasSuffix("NotSet") else { return nil }
        switch key {
        case "HKCharacteristicTypeIdentifierDateOfBirth":
            return text.utf8.count >= 10 ? String(text.prefix(10)) : nil
        case "HKCharacteristicTypeIdentifierBiologicalSex":
            return ["HKBiologicalSexFemale": "female", "HKBiologicalSexMale": "male", "HKBiologicalSexOther": "other"][text]
        case "HKCharacteristicTypeIdentifierBloodType":
            guard text.hasPrefix("HKBloodType") else { return nil }
            var rest = text.dropFirst("HKBloodType".count)
            let sign: String
            if rest.hasSuffix("Positive") { sign = "+"; rest = rest.dropLast("Positive".count) }
            else if rest.hasSuffix("Negative") { sign = "-"; rest = rest.dropLast("Negative".count) }
            else { return nil }
            return ["A", "B", "AB", "O"].contains(String(rest)) ? rest + sign : nil
        case "HKCharacteristicTypeIdentifierFitzpatrickSkinType":
            guard text.hasPrefix("HKFitzpatrickSkinType") else { return nil }
            let rest = String(text.dropFirst("HKFitzpatrickSkinType".count))
            return ["I", "II", "III", "IV", "V", "VI"].contains(rest) ? rest : nil
        case "HKCharacteristicTypeIdentifierWheelchairUse":
            return ["HKWheelchairUseNo": "no", "HKWheelchairUseYes": "yes"][text]
        default:
            return nil
        }
    }

    // MARK: Samples

    /// Builds, checks (the broker's own rules, units converted to canonical) and batches one sample.
    private func add(type: ObjectType, typeID: String, attributes: [String: String], value: SampleValue, content: [String]) {
        let startText = attributes["startDate"] ?? ""
        let endText = attributes["endDate"] ?? ""
        guard let start = AppleHealthDate.micros(startText), let end = AppleHealthDate.micros(endText) else {
            return invalid(typeID, "startDate or endDate is not YYYY-MM-DD HH:MM:SS ±HHMM")
        }
        let sourceName = attributes["sourceName"] ?? ""
        var name = [typeID, sourceName, startText, endText] + content
        for key in metadata.keys.sorted() { name.append("\(key.utf8.count):\(key)=\(metadata[key] ?? "")") }
        let uuid = Self.uuid(startMicros: start, content: name.joined(separator: "\n"))
        let raw = Sample(uuid: uuid, type: type, startMicros: start, endMicros: end, value: value, metadata: metadata)
        var sample: Sample
        do throws(BrokerError) {
            guard let checked = try SampleValidator.validate([raw], earliestPermitted: .min).first else { return }
            sample = checked
        } catch {
            let prefix = "samples[0]: "
            return invalid(typeID, error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
        sample.sourceAppID = appID(for: sourceName)
        if pendingCorrelation != nil {
            // A Record inside a Correlation: one of its objects, batched with it when it ends.
            pendingCorrelation?.members.append(sample)
            return
        }
        if seen[uuid] != nil {
            chunk.batch.repeats += 1
            counts.repeats += 1
            return
        }
        seen[uuid] = chunk.batch.samples.count
        chunk.batch.samples.append(sample)
        counts.perSource[sourceName, default: 0] += 1
        if chunk.batch.samples.count + batchedMembers >= batchSize { flush() }
    }

    /// One Correlation (blood pressure, food), kept as a correlation of the Records it held.
    ///
    /// Its span is widened to hold its objects if the export's does not. A member also found as a
    /// top-level Record (Apple's exports repeat them) has the same content-derived uuid: in this
    /// batch it is taken out of the plain samples (the correlation holds it), in an earlier one it
    /// is already stored and the correlation links it. A Correlation of a type the broker does not
    /// know, or one its rules refuse, is counted as such and its objects imported as plain samples.
    private func correlation(_ attributes: [String: String], metadata: [String: String], members: [Sample]) {
        guard !members.isEmpty else { return }
        let typeID = attributes["type"] ?? ""
        let type = ObjectType(typeID)
        let sourceName = attributes["sourceName"] ?? ""
        var sample: Sample?
        if TypeCatalogue.descriptor(for: type)?.kind == .correlation,
           let start = attributes["startDate"].flatMap(AppleHealthDate.micros), let end = attributes["endDate"].flatMap(AppleHealthDate.micros) {
            var name = [typeID, sourceName, String(start), String(end)] + members.map(\.uuid).sorted()
            for key in metadata.keys.sorted() { name.append("\(key.utf8.count):\(key)=\(metadata[key] ?? "")") }
            let raw = Sample(
                uuid: Self.uuid(startMicros: start, content: name.joined(separator: "\n")), type: type,
                startMicros: min(start, members.map(\.startMicros).min() ?? start), endMicros: max(end, members.map(\.endMicros).max() ?? end),
                value: .correlation(members), metadata: metadata)
            do throws(BrokerError) {
                sample = try SampleValidator.validate([raw], earliestPermitted: .min).first
            } catch {
                let prefix = "samples[0]: "
                invalid(typeID, error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
            }
        } else if TypeCatalogue.descriptor(for: type)?.kind != .correlation {
            counts.unknownTypes[typeID.isEmpty ? "(no type)" : typeID, default: 0] += 1
        } else {
            invalid(typeID, "startDate or endDate is not YYYY-MM-DD HH:MM:SS ±HHMM")
        }
        guard var correlation = sample else {
            for member in members { append(member, sourceName: sourceName) }
            return
        }
        correlation.sourceAppID = appID(for: sourceName)
        if !chunk.batch.samples.isEmpty, chunk.batch.samples.count + batchedMembers + 1 + members.count > batchSize { flush() }
        if seen[correlation.uuid] != nil {
            chunk.batch.repeats += 1
            counts.repeats += 1
            return
        }
        // Members this batch already holds as plain samples leave it: the correlation holds them.
        let plain = Set(members.compactMap { seen[$0.uuid] }.filter { $0 >= 0 })
        if !plain.isEmpty {
            chunk.batch.samples = chunk.batch.samples.enumerated().filter { !plain.contains($0.offset) }.map(\.element)
            chunk.batch.repeats += plain.count
            counts.repeats += plain.count
            for (index, kept) in chunk.batch.samples.enumerated() where seen[kept.uuid].map({ $0 >= 0 }) ?? false { seen[kept.uuid] = index }
        }
        seen[correlation.uuid] = chunk.batch.samples.count
        // Inside a correlation (-1): a top-level repeat later in this batch is skipped.
        for member in members { seen[member.uuid] = -1 }
        chunk.batch.samples.append(correlation)
        batchedMembers += members.count
        counts.perSource[sourceName, default: 0] += 1 + members.count
        if chunk.batch.samples.count + batchedMembers >= batchSize { flush() }
    }

    /// Batches a checked sample of `sourceName` (a repeat in this batch is counted, not batched).
    private func append(_ sample: Sample, sourceName: String) {
        if seen[sample.uuid] != nil {
            chunk.batch.repeats += 1
            counts.repeats += 1
            return
        }
        seen[sample.uuid] = chunk.batch.samples.count
        chunk.batch.samples.append(sample)
        counts.perSource[sourceName, default: 0] += 1
        if chunk.batch.samples.count + batchedMembers >= batchSize { flush() }
    }

    /// The app id of a source, noting it in the chunk the first time it is seen.
    private func appID(for sourceName: String) -> String {
        if let known = sourceIDs[sourceName] { return known }
        let id = AppleHealthSource.appID(for: sourceName)
        sourceIDs[sourceName] = id
        chunk.newSources.append(AppleHealthSourceName(appID: id, name: sourceName))
        return id
    }

    /// The raw value of a category value as the export writes it (`HKCategoryValueSleepAnalysisAsleepCore`, or a number).
    private func categoryValue(_ text: String, of type: ObjectType) -> Int64? {
        if let number = Int64(text) { return number }
        if let names = categoryNames[type.identifier] { return names[text] }
        var short = type.identifier
        if short.hasPrefix("HKCategoryTypeIdentifier") { short.removeFirst("HKCategoryTypeIdentifier".count) }
        var names: [String: Int64] = [:]
        for value in TypeCatalogue.categoryValues(of: type) {
            let capitalised = (value.name.first.map { $0.uppercased() } ?? "") + value.name.dropFirst()
            names["HKCategoryValue\(short)\(capitalised)"] = value.value
            names["HKCategoryValue\(capitalised)"] = value.value
            names[value.name] = value.value
        }
        categoryNames[type.identifier] = names
        return names[text]
    }

    private func invalid(_ typeID: String, _ reason: String) {
        counts.invalid[typeID, default: (0, reason)].count += 1
    }

    /// Hands out the batch being built (when it holds anything) and starts the next.
    private func flush() {
        guard !chunk.batch.samples.isEmpty || chunk.batch.repeats > 0 || !chunk.newSources.isEmpty else { return }
        deliver(chunk)
        chunk = AppleHealthChunk(batch: ImportBatch())
        batchedMembers = 0
        seen.removeAll(keepingCapacity: true)
    }
}
