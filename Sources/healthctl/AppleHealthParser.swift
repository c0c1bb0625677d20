import BrokerModel
import BrokerPolicy
import Foundation

/// Reads an Apple Health `export.xml` as a SAX stream (libxml2's SAX2 push parser, `XMLSAXReader`)
/// and hands out batches of checked samples as it goes: memory stays bounded by one batch, whatever
/// the file's size.
///
/// Records (quantity and category types), Correlations (kept as correlations of their Records), Workouts (with
/// duration, distance and energy, from attributes or WorkoutStatistics) and the Me element's
/// characteristics are read; everything else is counted in `counts`, never silently dropped.
///
/// Records are the export's bulk (millions), so they are read from libxml2's bytes without a
/// String per attribute: types, units and sources are looked up in small caches by their bytes
/// (`AppleHealthRecordText`), and the uuid is hashed from a reused buffer. Workouts, correlations
/// and Me are rare and read through dictionaries.
final class AppleHealthParser: XMLSAXHandler {
    /// What was read, for the summary.
    var counts: AppleHealthCounts {
        var counts = tally
        for entry in types.entries where entry.unknown > 0 { counts.unknownTypes[entry.identifier.isEmpty ? "(no type)" : entry.identifier, default: 0] += entry.unknown }
        for source in sources where source.samples > 0 { counts.perSource[source.name, default: 0] += source.samples }
        return counts
    }
    /// The parse error, with its line, when the XML is not well formed.
    private(set) var failure: String?
    // The state the per-record path touches is `@exclusivity(unchecked)`: the parser is used by one
    // thread and never re-entered (libxml2 calls back one event at a time), and the runtime's check
    // of each access to a class's stored property cost 2-3% of the parse (perf, 200,000 records).
    @exclusivity(unchecked) private var tally = AppleHealthCounts()
    private let batchSize: Int
    private let deliver: (AppleHealthChunk) -> Void
    @exclusivity(unchecked) private var types = AppleHealthTypeCache()
    /// The sources met, each with the batch being built for it (so every call the importer makes
    /// is one source's full batch) and the uuids in that batch (the broker refuses a repeat in one call).
    @exclusivity(unchecked) private var sources: [AppleHealthPendingSource] = []
    /// Samples in all sources' batches: past `pendingLimit`, the fullest is handed out early.
    @exclusivity(unchecked) private var pendingSamples = 0
    /// Sources first seen since the last chunk was handed out.
    private var newSources: [AppleHealthSourceName] = []
    private var categoryNames: [String: [String: Int64]] = [:]
    @exclusivity(unchecked) private var depth = 0
    /// Whether `</HealthData>` was read: the export must not just stop.
    private var sawEnd = false
    /// Whether a Record is being read (between its start and end tags), and its attributes' bytes.
    @exclusivity(unchecked) private var inRecord = false
    @exclusivity(unchecked) private var recordText = AppleHealthRecordText()
    private var pendingWorkout: [String: String]?
    private var workoutStatistics: [String: (sum: String, unit: String)] = [:]
    @exclusivity(unchecked) private var metadata: [String: String] = [:]
    /// The bytes a record's uuid is hashed from (reused).
    @exclusivity(unchecked) private var uuidInput: [UInt8] = []
    /// The Correlation being read: its attributes, metadata and the member samples read so far.
    @exclusivity(unchecked) private var pendingCorrelation: (attributes: [String: String], metadata: [String: String], members: [AppleHealthMember])?

    /// A record's uuid: derived from its content alone (so an export imports once), and time-ordered
    /// like HealthStore's version 7 uuids, which the broker's uuid index takes far faster than
    /// random ones. RFC 9562 version 8 layout: 48 bits of the start's Unix milliseconds, then 74 bits
    /// of SHA-1(namespace, content).
    static func uuid(startMicros: Int64, content: String) -> String {
        uuidKey(startMicros: startMicros, content: content).text
    }

    /// As `uuid(startMicros:content:)`, as its two words.
    static func uuidKey(startMicros: Int64, content: String) -> AppleHealthUUID {
        var input = namespace
        input.append(contentsOf: content.utf8)
        return input.withUnsafeBufferPointer { uuidKey(startMicros: startMicros, hashing: $0) }
    }

    /// As `uuid(startMicros:content:)`, over the namespace and content bytes already in `input`.
    static func uuid(startMicros: Int64, hashing input: UnsafeBufferPointer<UInt8>) -> String {
        uuidKey(startMicros: startMicros, hashing: input).text
    }

    /// As `uuid(startMicros:hashing:)`, as its two words.
    static func uuidKey(startMicros: Int64, hashing input: UnsafeBufferPointer<UInt8>) -> AppleHealthUUID {
        AppleHealthUUID(startMicros: startMicros, digest: SHA1.words(input))
    }

    /// The namespace of uuids derived from an export's records.
    static let namespace: [UInt8] = SampleUUID.bytes(of: "6b1f2c3d-8e4a-4f5b-9c6d-7e8f9a0b1c2d")!

    /// A parser handing out batches of up to `batchSize` samples to `deliver` (called on the parsing thread).
    init(batchSize: Int, deliver: @escaping (AppleHealthChunk) -> Void) {
        self.batchSize = batchSize
        self.deliver = deliver
    }

    /// How many bytes each read asks for.
    static let readSize = 256 << 10

    /// Parses the whole stream; the last (partial) batch is delivered too. False on an XML error (see `failure`).
    @discardableResult
    func parse(_ stream: InputStream) -> Bool {
        let source = DoctypeStrippingStream(stream)
        source.open()
        defer { source.close() }
        let reader = XMLSAXReader(handler: self)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = source.read(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), maxLength: Self.readSize)
            if count < 0 {
                return finish(reader, readError: source.streamError.map { "\($0.localizedDescription)" } ?? "read error")
            }
            let last = count == 0
            guard reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), last: last) else { break }
            if last { break }
        }
        return finish(reader, readError: nil)
    }

    /// Parses `data` (tests and small files).
    @discardableResult
    func parse(_ data: Data) -> Bool {
        parse(InputStream(data: data))
    }

    private func finish(_ reader: XMLSAXReader, readError: String?) -> Bool {
        var ok = reader.error == nil && readError == nil
        if let readError {
            failure = "cannot read the export: \(readError)"
        } else if let error = reader.error {
            failure = sawEnd || !reader.atEnd
                ? "XML error at line \(error.line), column \(error.column): \(error.message)"
                : "the export ends before </HealthData> (line \(error.line)): is the file complete?"
        } else if !sawEnd {
            ok = false
            failure = "the export ends before </HealthData> (line \(reader.lineNumber)): is the file complete?"
        }
        flush()
        return ok
    }

    func startElement(_ name: XMLText, attributes: XMLAttributes) {
        depth += 1
        if name.equals("Record") {
            recordText.read(attributes)
            inRecord = true
            if !metadata.isEmpty { metadata = [:] }
            return
        }
        if name.equals("MetadataEntry") {
            if inRecord || pendingWorkout != nil, let key = attributes.value(of: "key"), let value = attributes.value(of: "value") {
                metadata[key.string] = value.string
            } else if pendingCorrelation != nil, let key = attributes.value(of: "key"), let value = attributes.value(of: "value") {
                pendingCorrelation?.metadata[key.string] = value.string
            }
            return
        }
        switch name.string {
        case "Correlation":
            tally.correlations += 1
            pendingCorrelation = (attributes.dictionary, [:], [])
        case "Workout":
            pendingWorkout = attributes.dictionary
            workoutStatistics = [:]
            metadata = [:]
        case "WorkoutStatistics":
            let attributes = attributes.dictionary
            if pendingWorkout != nil, let type = attributes["type"], let sum = attributes["sum"] {
                workoutStatistics[type] = (sum, attributes["unit"] ?? "")
            }
        case "Me":
            me(attributes.dictionary)
        case "HealthData", "ExportDate":
            break
        case let other:
            // A child of a record or workout (WorkoutEvent, WorkoutRoute, beat lists) is part of
            // what was read; only whole elements under HealthData are reported as not imported.
            if depth == 2 { tally.skippedElements[other, default: 0] += 1 }
        }
    }

    func endElement(_ name: XMLText) {
        depth -= 1
        if name.equals("Record") {
            if inRecord { record(recordText) }
            inRecord = false
        } else if name.equals("HealthData") {
            sawEnd = true
        } else if name.equals("Workout") {
            if let attributes = pendingWorkout { workout(attributes) }
            pendingWorkout = nil
        } else if name.equals("Correlation") {
            if let pending = pendingCorrelation { correlation(pending.attributes, metadata: pending.metadata, members: pending.members) }
            pendingCorrelation = nil
        }
    }

    // MARK: Elements

    /// One Record: a quantity or category sample, or a count under its unknown type.
    func record(_ text: AppleHealthRecordText) {
        tally.records += 1
        let typeIndex = text.withBytes(text.type) { types.index(of: $0) }
        guard let descriptor = types.entries[typeIndex].descriptor else {
            types.entries[typeIndex].unknown += 1
            return
        }
        let typeID = types.entries[typeIndex].identifier
        let value: SampleValue
        if descriptor.kind == .quantity {
            guard let number = Double(text.string(text.value)) else {
                return invalid(typeID, "value \"\(text.string(text.value))\" is not a number")
            }
            value = .quantity(types.canonical(number, unit: text, typeIndex: typeIndex))
        } else {
            let valueText = text.string(text.value)
            guard let raw = categoryValue(valueText, of: descriptor.type) else {
                return invalid(typeID, "\"\(valueText)\" is not a value of \(typeID)")
            }
            value = .category(raw)
        }
        guard let start = text.withBytes(text.startDate, AppleHealthDate.micros(bytes:)),
              let end = text.withBytes(text.endDate, AppleHealthDate.micros(bytes:))
        else { return invalid(typeID, "startDate or endDate is not YYYY-MM-DD HH:MM:SS ±HHMM") }
        // The uuid's content, as `add` joins it: type, source, dates as written, value and unit as written, metadata.
        uuidInput.removeAll(keepingCapacity: true)
        uuidInput.append(contentsOf: Self.namespace)
        text.appendBytes(text.type, to: &uuidInput)
        uuidInput.append(0x0A)
        text.appendBytes(text.sourceName, to: &uuidInput)
        uuidInput.append(0x0A)
        text.appendBytes(text.startDate, to: &uuidInput)
        uuidInput.append(0x0A)
        text.appendBytes(text.endDate, to: &uuidInput)
        uuidInput.append(0x0A)
        text.appendBytes(text.value, to: &uuidInput)
        uuidInput.append(0x0A)
        text.appendBytes(text.unit, to: &uuidInput)
        appendMetadata(to: &uuidInput)
        let key = uuidInput.withUnsafeBufferPointer { Self.uuidKey(startMicros: start, hashing: $0) }
        let uuid = key.text
        add(Sample(uuid: uuid, type: descriptor.type, startMicros: start, endMicros: end, value: value, metadata: metadata),
            key: key, typeID: typeID, source: { text.withBytes(text.sourceName) { self.sourceIndex(of: $0) } }) { [self] in
            // What the broker's rules say about the record as the export gives it (raw unit), for the message.
            var raw = value
            if descriptor.kind == .quantity, let number = Double(text.string(text.value)) {
                let unit = text.string(text.unit)
                raw = .quantity(Quantity(number, unit.isEmpty ? descriptor.canonicalUnit : unit))
            }
            return Sample(uuid: uuid, type: descriptor.type, startMicros: start, endMicros: end, value: raw, metadata: metadata)
        }
    }

    /// One Workout, with its totals from attributes or else from its WorkoutStatistics.
    func workout(_ attributes: [String: String]) {
        tally.records += 1
        tally.workouts += 1
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
        let sourceName = attributes["sourceName"] ?? ""
        var name = [typeID, sourceName, attributes["startDate"] ?? "", attributes["endDate"] ?? ""] + content
        for key in metadata.keys.sorted() { name.append("\(key.utf8.count):\(key)=\(metadata[key] ?? "")") }
        let key = Self.uuidKey(startMicros: start, content: name.joined(separator: "\n"))
        let sample = Sample(uuid: key.text, type: .workout, startMicros: start, endMicros: end, value: .workout(details), metadata: metadata)
        add(sample, key: key, typeID: typeID, source: { Array(sourceName.utf8).withUnsafeBufferPointer { self.sourceIndex(of: $0) } }) { sample }
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
                if !text.isEmpty, !text.hasSuffix("NotSet") { tally.skippedElements["Me \(key)", default: 0] += 1 }
                continue
            }
            tally.characteristics.append((key, value))
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

    /// The metadata entries as the uuid's content takes them: `\n<key bytes>:<key>=<value>`, keys sorted.
    private func appendMetadata(to bytes: inout [UInt8]) {
        guard !metadata.isEmpty else { return }
        for key in metadata.keys.sorted() {
            bytes.append(0x0A)
            bytes.append(contentsOf: String(key.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes.append(contentsOf: (metadata[key] ?? "").utf8)
        }
    }

    /// Checks (the broker's own rules) and batches one sample with its source's (`source`: its index
    /// in `sources`, asked only once the sample passed, so a source of nothing valid is not registered);
    /// when the rules refuse it, the reason is taken from `asWritten` (the record with its unit as the
    /// export gives it), as the broker would word it.
    private func add(_ sample: Sample, key: AppleHealthUUID, typeID: String, source: () -> Int, asWritten: () -> Sample) {
        let checked: Sample
        do throws(BrokerError) {
            checked = try SampleValidator.validated(sample, earliestPermitted: .min)
        } catch {
            var reason = error.message
            do throws(BrokerError) {
                _ = try SampleValidator.validated(asWritten(), earliestPermitted: .min)
            } catch {
                reason = error.message
            }
            return invalid(typeID, reason)
        }
        // The sample's source is its batch's (`ImportBatch.sourceAppID`): the sample itself names none.
        let index = source()
        if pendingCorrelation != nil {
            // A Record inside a Correlation: one of its objects, batched with it when it ends.
            pendingCorrelation?.members.append(AppleHealthMember(sample: checked, key: key, source: index))
            return
        }
        append(checked, key: key, to: index)
    }

    /// Batches a checked sample in source `index`'s batch (a repeat in that batch is counted, not batched).
    private func append(_ sample: Sample, key: AppleHealthUUID, to index: Int) {
        // One look-up in the common case (a new uuid); a repeat puts back what was there.
        if let earlier = sources[index].seen.updateValue(sources[index].batch.samples.count, forKey: key) {
            sources[index].seen[key] = earlier
            sources[index].batch.repeats += 1
            tally.repeats += 1
            return
        }
        sources[index].batch.samples.append(sample)
        sources[index].samples += 1
        sources[index].bytes += Self.wireBytes(of: sample)
        pendingSamples += 1
        flushIfFull(index)
    }

    /// Hands out source `index`'s batch when it is full (correlation objects count), or the fullest
    /// batch when all of them together hold too much.
    private func flushIfFull(_ index: Int) {
        if sources[index].size >= batchSize || sources[index].bytes >= Self.batchBytes {
            flush(index)
        } else if pendingSamples >= pendingLimit,
                  let fullest = sources.indices.max(by: { sources[$0].size < sources[$1].size }) {
            flush(fullest)
        }
    }

    /// One Correlation (blood pressure, food), kept as a correlation of the Records it held.
    ///
    /// Its span is widened to hold its objects if the export's does not. A member also found as a
    /// top-level Record (Apple's exports repeat them) has the same content-derived uuid: in its
    /// source's batch being built it is taken out of the plain samples (the correlation holds it), in
    /// an earlier call it is already stored and the correlation links it. A Correlation of a type the
    /// broker does not know, or one its rules refuse, is counted as such and its objects imported as
    /// plain samples.
    private func correlation(_ attributes: [String: String], metadata: [String: String], members pending: [AppleHealthMember]) {
        guard !pending.isEmpty else { return }
        let members = pending.map(\.sample)
        let typeID = attributes["type"] ?? ""
        let type = ObjectType(typeID)
        let sourceName = attributes["sourceName"] ?? ""
        let index = Array(sourceName.utf8).withUnsafeBufferPointer { sourceIndex(of: $0) }
        var sample: Sample?
        var key = AppleHealthUUID(startMicros: 0, digest: (0, 0, 0, 0, 0))
        if TypeCatalogue.descriptor(for: type)?.kind == .correlation,
           let start = attributes["startDate"].flatMap(AppleHealthDate.micros), let end = attributes["endDate"].flatMap(AppleHealthDate.micros) {
            var name = [typeID, sourceName, String(start), String(end)] + members.map(\.uuid).sorted()
            for key in metadata.keys.sorted() { name.append("\(key.utf8.count):\(key)=\(metadata[key] ?? "")") }
            key = Self.uuidKey(startMicros: start, content: name.joined(separator: "\n"))
            let raw = Sample(
                uuid: key.text, type: type,
                startMicros: min(start, members.map(\.startMicros).min() ?? start), endMicros: max(end, members.map(\.endMicros).max() ?? end),
                value: .correlation(members), metadata: metadata)
            do throws(BrokerError) {
                sample = try SampleValidator.validated(raw, earliestPermitted: .min)
            } catch {
                invalid(typeID, error.message)
            }
        } else if TypeCatalogue.descriptor(for: type)?.kind != .correlation {
            tally.unknownTypes[typeID.isEmpty ? "(no type)" : typeID, default: 0] += 1
        } else {
            invalid(typeID, "startDate or endDate is not YYYY-MM-DD HH:MM:SS ±HHMM")
        }
        guard let correlation = sample else {
            for member in pending { append(member.sample, key: member.key, to: member.source) }
            return
        }
        if sources[index].sendCount > 0, sources[index].size + 1 + members.count > batchSize {
            flush(index)
        }
        guard sources[index].seen[key] == nil else {
            sources[index].batch.repeats += 1
            tally.repeats += 1
            return
        }
        sources[index].seen[key] = -1
        // Objects this batch already holds as plain samples leave it: the correlation holds them.
        // They are only marked here and taken out when the batch is handed out (one pass per batch,
        // not one per correlation). Inside a correlation (-1), a top-level repeat later in this
        // batch is skipped as a repeat.
        var removed = 0
        for member in pending {
            if let position = sources[index].seen[member.key] {
                guard position >= 0 else { continue }
                sources[index].dropped.append(position)
                removed += 1
            }
            sources[index].seen[member.key] = -1
        }
        if removed > 0 {
            sources[index].batch.repeats += removed
            tally.repeats += removed
            sources[index].samples -= removed
            pendingSamples -= removed
        }
        sources[index].batch.samples.append(correlation)
        sources[index].batchedObjects += members.count
        sources[index].samples += 1 + members.count
        sources[index].bytes += Self.wireBytes(of: correlation)
        pendingSamples += 1 + members.count
        flushIfFull(index)
    }

    /// The most bytes (estimated) a batch may take in a call before it is handed out, whatever its
    /// count: half the broker's default frame limit (4 MiB), so a batch of records with long
    /// metadata still fits in one frame.
    static let batchBytes = 2 << 20

    /// An upper estimate of the bytes `sample` takes in an import call: its strings plus a fixed
    /// allowance for field tags, lengths, dates and the value; a correlation's members included.
    static func wireBytes(of sample: Sample) -> Int {
        var bytes = 48 + sample.uuid.utf8.count + sample.type.identifier.utf8.count
        for (key, value) in sample.metadata { bytes += 8 + key.utf8.count + value.utf8.count }
        switch sample.value {
        case .quantity(let quantity): bytes += quantity.unit.utf8.count
        case .workout(let details): bytes += 64 + details.activityType.utf8.count
        case .correlation(let members): for member in members { bytes += wireBytes(of: member) }
        case .category: break
        }
        return bytes
    }

    /// The most samples waiting in all sources' batches together (memory stays bounded however many sources an export has).
    private var pendingLimit: Int { max(batchSize * 4, 1) }

    /// The index of a source in `sources`, noting it for the next chunk the first time it is seen.
    private func sourceIndex(of text: UnsafeBufferPointer<UInt8>) -> Int {
        for index in sources.indices where sources[index].text.equals(text) { return index }
        let name = String(decoding: text, as: UTF8.self)
        let id = AppleHealthSource.appID(for: name)
        sources.append(AppleHealthPendingSource(text: Array(text), name: name, appID: id))
        newSources.append(AppleHealthSourceName(appID: id, name: name))
        return sources.count - 1
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
        tally.invalid[typeID, default: (0, reason)].count += 1
    }

    /// Hands out source `index`'s batch (with the sources first seen since the last one) and starts its next.
    private func flush(_ index: Int) {
        sources[index].removeDropped()
        var chunk = AppleHealthChunk(batch: ImportBatch())
        swap(&chunk.batch, &sources[index].batch)
        chunk.batch.sourceAppID = sources[index].appID
        chunk.newSources = newSources
        newSources = []
        pendingSamples -= chunk.batch.samples.count + sources[index].batchedObjects
        sources[index].batchedObjects = 0
        sources[index].bytes = 0
        sources[index].seen.removeAll(keepingCapacity: true)
        deliver(chunk)
    }

    /// Hands out every batch that holds anything, in the order the sources were met (the end).
    private func flush() {
        for index in sources.indices where sources[index].sendCount > 0 || sources[index].batch.repeats > 0 {
            flush(index)
        }
        if !newSources.isEmpty { deliver(AppleHealthChunk(batch: ImportBatch(), newSources: newSources)) }
        newSources = []
    }
}

/// A source of the export as the parser keeps it: its name's bytes, app id, and its batch being built.
struct AppleHealthPendingSource {
    /// The `sourceName`'s bytes.
    let text: [UInt8]
    /// The `sourceName`.
    let name: String
    /// The app id its samples go in as.
    let appID: String
    /// Samples sent so far.
    var samples = 0
    /// The samples waiting to be handed out.
    var batch = ImportBatch()
    /// The uuids in `batch` (correlations' objects included): each plain sample's position in
    /// `batch.samples`, -1 for a correlation or one of its objects.
    var seen: [AppleHealthUUID: Int] = [:]
    /// Positions in `batch.samples` of plain samples a later correlation of the batch holds: taken
    /// out when the batch is handed out.
    var dropped: [Int] = []
    /// Objects of the correlations in `batch`: the broker's batch limit counts them too.
    var batchedObjects = 0
    /// About how many bytes `batch` takes in a call (`AppleHealthParser.wireBytes`), dropped samples included.
    var bytes = 0

    /// The samples (and correlations) the batch will send: without the dropped ones.
    var sendCount: Int { batch.samples.count - dropped.count }

    /// What the batch counts against the broker's limit: its samples and its correlations' objects.
    var size: Int { sendCount + batchedObjects }

    /// Takes the dropped samples out of `batch.samples`, keeping the others' order.
    mutating func removeDropped() {
        guard !dropped.isEmpty else { return }
        var drop = [Bool](repeating: false, count: batch.samples.count)
        for position in dropped { drop[position] = true }
        var kept = 0
        for position in batch.samples.indices where !drop[position] {
            if kept != position { batch.samples.swapAt(kept, position) }
            kept += 1
        }
        batch.samples.removeLast(batch.samples.count - kept)
        dropped.removeAll(keepingCapacity: true)
    }
}

/// A Record read inside a Correlation: the checked sample, its uuid's words and its source's index.
struct AppleHealthMember {
    /// The checked sample (its source is its batch's).
    let sample: Sample
    /// Its uuid as words.
    let key: AppleHealthUUID
    /// Its source's index in the parser's sources.
    let source: Int
}
