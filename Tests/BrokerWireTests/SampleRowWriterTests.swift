import BrokerModel
import Testing
@testable import BrokerWire

/// The generated row writer (`Proto.SampleFields`, Proto+Fields.pb.swift) writes Query,
/// correlation Query and AnchoredQuery pages straight from the model samples the store hands the
/// broker: their bytes must be exactly what protobuf-c packs for the page of their `Sample.proto`
/// (and, for an AnchoredPage, its deletions, anchor and done), whatever fields are set.
@Suite("Sample row writer against protobuf-c")
struct SampleRowWriterTests {
    private static let callIDs: [UInt64] = [0, 1, 300, .max]

    /// Strings that stress the C-string rules: empty, NUL inside or first, unicode, long.
    private static let strings = ["", "a", "with\u{0}nul", "\u{0}", "Grüße 心拍数 🫀", String(repeating: "ü", count: 90)]

    /// Every optional field set or unset, alone and together: each value kind (quantity of zero,
    /// -0.0 and others; category 0, negative; workouts with and without energy and distance;
    /// correlations empty, with members, with members holding metadata), metadata of 0, 1 and many
    /// entries (keys that sort differently as C strings, NUL-holding keys and values), empty and
    /// NUL-holding strings in every string field, zero and extreme numbers.
    static let matrix: [Sample] = {
        var samples: [Sample] = []
        let quantities = [Quantity(0, "count"), Quantity(-0.0, ""), Quantity(72.5, "count/min"), Quantity(.infinity, "k\u{0}g"),
                          Quantity(-1e300, "Grüße")]
        let workouts = [
            WorkoutDetails(activityType: "", durationMicros: 0),
            WorkoutDetails(activityType: "running", durationMicros: 1, totalEnergy: Quantity(0, "kcal")),
            WorkoutDetails(activityType: "walk\u{0}ing", durationMicros: -1, totalDistance: Quantity(3.5, "")),
            WorkoutDetails(activityType: "🚲", durationMicros: .max, totalEnergy: Quantity(1, "kJ"), totalDistance: Quantity(-0.0, "m")),
        ]
        let metadatas: [[String: String]] = [
            [:], ["": ""], ["k": "v"], ["b": "2", "a": "1", "A": "0", "ä": "x", "a\u{0}z": "nul key", "ab": "with\u{0}nul"],
            Dictionary(uniqueKeysWithValues: (0..<30).map { ("key \($0) ✓", String(repeating: "v", count: $0)) }),
        ]
        let members = [
            Sample(uuid: "m-1", type: .bloodPressureSystolic, startMicros: 1, endMicros: 2, value: .quantity(Quantity(121, "mmHg")),
                   sourceAppID: "com.example.cuff", createdMicros: 3),
            Sample(uuid: "m-2", type: .bloodPressureDiastolic, startMicros: 1, endMicros: 2, value: .quantity(Quantity(79, "mmHg")),
                   metadata: ["arm": "left", "": "x"]),
            Sample(uuid: "", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .category(0)),
        ]
        var values: [SampleValue] = quantities.map { .quantity($0) }
        values += [.category(0), .category(-1), .category(.min), .category(.max)]
        values += workouts.map { .workout($0) }
        values += [.correlation([]), .correlation(members), .correlation([members[1]])]
        let types = [ObjectType.stepCount, .heartRate, .workout, .bloodPressure, ObjectType(""), ObjectType("HK\u{0}odd"),
                     ObjectType("HKQuantityTypeIdentifier心拍数🫀")]
        let numbers: [Int64] = [0, 1, -1, .min, .max, 1_700_000_000_000_000]
        var index = 0
        for value in values {
            for metadata in metadatas {
                let text = strings[index % strings.count]
                let number = numbers[index % numbers.count]
                samples.append(Sample(
                    uuid: index % 3 == 0 ? "6f9619ff-8b86-d011-b42d-00c04fc964ff" : text, type: types[index % types.count],
                    startMicros: number, endMicros: numbers[(index + 1) % numbers.count], value: value, metadata: metadata,
                    sourceAppID: strings[(index + 2) % strings.count], createdMicros: numbers[(index + 3) % numbers.count]))
                index += 1
            }
        }
        return samples
    }()

    /// The pages compared: none, one sample, each sample of `matrix` alone, the whole matrix, the
    /// shared health samples and a big page.
    private static var pages: [[Sample]] {
        [[], [matrix[0]], matrix, Samples.healthSamples, Array(Samples.bigPage.prefix(600))] + matrix.map { [$0] }
    }

    /// The built frame of `rows` (each row's `Sample.proto`) and protobuf-c's packing of it.
    private func reference(callID: UInt64, status: Proto.Status?, rows: [Sample]) -> (built: [UInt8], packed: [UInt8]?) {
        var page = Proto.SamplePage()
        page.samples = Sample.proto(rows)
        var item = Proto.StreamItem()
        item.item = .samples(page)
        var message = Proto.ServerFrame()
        message.callID = callID
        message.status = status
        message.response = .streamItem(item)
        var built: [UInt8] = []
        message.appendFrame(to: &built)
        return (built, message.repackedByProtobufC())
    }

    @Test func rowPagesMatchProtobufC() {
        let statuses: [Proto.Status?] = [nil, Status(code: .aborted, message: "odd but encodable").proto]
        for callID in Self.callIDs {
            for (number, rows) in Self.pages.enumerated() {
                for status in statuses {
                    let (built, packed) = reference(callID: callID, status: status, rows: rows)
                    #expect(packed != nil)
                    var appended: [UInt8] = [7, 7]  // appending after existing output
                    rows.withUnsafeBufferPointer {
                        Proto.ServerFrame.appendFrame(callID: callID, status: status, streamItemSamples: $0, to: &appended)
                    }
                    let ours = Array(appended.dropFirst(2))
                    #expect(ours == built, "page \(number) (\(rows.count) samples), call \(callID), status \(status != nil)")
                    #expect(Array(ours.dropFirst(FrameDecoder.headerSize)) == packed,
                            "page \(number) (\(rows.count) samples), call \(callID), status \(status != nil)")
                }
            }
        }
    }

    /// The broker's entry point (`Sample.appendPage`, what the query pager sends) writes the same
    /// frame, and the strict reader reads the rows back from it.
    @Test func brokerPageEntryPointMatches() throws {
        for rows in Self.pages {
            var appended: [UInt8] = []
            rows.withUnsafeBufferPointer { Sample.appendPage(callID: 42, rows: $0, to: &appended) }
            let (built, _) = reference(callID: 42, status: nil, rows: rows)
            #expect(appended == built)
        }
        var appended: [UInt8] = []
        Samples.healthSamples.withUnsafeBufferPointer { Sample.appendPage(callID: 9, rows: $0, to: &appended) }
        let frame = try #require(appended.dropFirst(FrameDecoder.headerSize).withUnsafeBufferPointer { ProtoReference.strictServerFrame($0) })
        guard case .streamItem(let item)? = frame.response, case .samples(let page)? = item.item else {
            Issue.record("not a sample page")
            return
        }
        #expect(try Sample.samples(proto: page.samples) == Samples.healthSamples)
    }

    /// The built frame of an AnchoredPage (its `proto`) and protobuf-c's packing of it.
    private func anchoredReference(callID: UInt64, status: Proto.Status?, page: AnchoredPage) -> (built: [UInt8], packed: [UInt8]?) {
        var item = Proto.StreamItem()
        item.item = .anchoredPage(page.proto)
        var message = Proto.ServerFrame()
        message.callID = callID
        message.status = status
        message.response = .streamItem(item)
        var built: [UInt8] = []
        message.appendFrame(to: &built)
        return (built, message.repackedByProtobufC())
    }

    /// AnchoredQuery pages: the added rows of every page above with deletions of none, one and many
    /// entries (NUL-holding, unicode, empty uuids and source app ids; as many source app ids as
    /// uuids, fewer and more), no anchor, a 49-byte one and odd ones, done or not.
    private static var anchoredPages: [AnchoredPage] {
        let deletions: [([String], [String])] = [
            ([], []), (["6f9619ff-8b86-d011-b42d-00c04fc964ff"], ["com.example.other"]), (strings, strings.reversed()),
            (["a", "b"], []), ([], ["only.source"]), ((0..<600).map { "uuid-\($0)" }, (0..<600).map { "app.\($0 % 7)" }),
        ]
        let anchors: [[UInt8]] = [[], Array(0..<49), [0], [UInt8](repeating: 0xFF, count: 300)]
        var result: [AnchoredPage] = []
        var index = 0
        for rows in [[], [matrix[0]], matrix, Array(Samples.bigPage.prefix(600))] + matrix.map({ [$0] }) {
            for (uuids, sources) in deletions where index % 2 == 0 || rows.count < 2 {
                result.append(AnchoredPage(
                    added: rows, deletedUUIDs: uuids, deletedSourceAppIDs: sources,
                    newAnchor: anchors[index % anchors.count], done: index % 3 != 1))
                index += 1
            }
            index += 1
        }
        return result
    }

    @Test func anchoredPagesMatchProtobufC() {
        let statuses: [Proto.Status?] = [nil, Status(code: .aborted, message: "odd but encodable").proto]
        for callID in Self.callIDs {
            for (number, page) in Self.anchoredPages.enumerated() {
                for status in statuses {
                    let (built, packed) = anchoredReference(callID: callID, status: status, page: page)
                    #expect(packed != nil)
                    var appended: [UInt8] = [7, 7]  // appending after existing output
                    page.added.withUnsafeBufferPointer {
                        Proto.ServerFrame.appendFrame(
                            callID: callID, status: status, streamItemAnchoredPage: $0, deletedUUIDs: page.deletedUUIDs,
                            newAnchor: page.newAnchor, done: page.done, deletedSourceAppIDs: page.deletedSourceAppIDs, to: &appended)
                    }
                    let ours = Array(appended.dropFirst(2))
                    let what = "anchored page \(number) (\(page.added.count) added, \(page.deletedUUIDs.count) deleted), call \(callID), status \(status != nil)"
                    #expect(ours == built, "\(what)")
                    #expect(Array(ours.dropFirst(FrameDecoder.headerSize)) == packed, "\(what)")
                }
            }
        }
    }

    /// The broker's entry point for AnchoredQuery pages (`AnchoredPage.appendFrame`, what `send`
    /// writes) gives the same frame, and the strict reader reads the page back as it was.
    @Test func anchoredPageEntryPointMatches() throws {
        for page in Self.anchoredPages {
            var appended: [UInt8] = []
            page.appendFrame(callID: 42, to: &appended)
            let (built, _) = anchoredReference(callID: 42, status: nil, page: page)
            #expect(appended == built)
        }
        let page = AnchoredPage(
            added: Samples.healthSamples, deletedUUIDs: ["gone-1", "gone-2"], deletedSourceAppIDs: ["com.example.a", "com.example.b"],
            newAnchor: Array(0..<49), done: true)
        var appended: [UInt8] = []
        page.appendFrame(callID: 9, to: &appended)
        let frame = try #require(appended.dropFirst(FrameDecoder.headerSize).withUnsafeBufferPointer { ProtoReference.strictServerFrame($0) })
        guard case .streamItem(let item)? = frame.response, case .anchoredPage(let read)? = item.item else {
            Issue.record("not an anchored page")
            return
        }
        #expect(try AnchoredPage(proto: read) == page)
    }

    /// A correlation Query's page (correlations holding their visible objects) through the row
    /// writer: protobuf-c's packing of the built page.
    @Test func correlationPagesMatchProtobufC() {
        let correlations = Self.matrix.filter { if case .correlation = $0.value { true } else { false } }
        #expect(!correlations.isEmpty)
        for rows in [correlations, Array(correlations.prefix(1)), correlations.reversed()] {
            var appended: [UInt8] = []
            rows.withUnsafeBufferPointer { Sample.appendPage(callID: 5, rows: $0, to: &appended) }
            let (built, packed) = reference(callID: 5, status: nil, rows: rows)
            #expect(appended == built)
            #expect(Array(appended.dropFirst(FrameDecoder.headerSize)) == packed)
        }
    }
}
