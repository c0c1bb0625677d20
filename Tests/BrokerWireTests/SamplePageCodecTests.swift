import BrokerModel
import TestSupport
import Testing
@testable import BrokerWire

/// The stream items that carry pages of samples (SamplePage, AnchoredPage): the generated encoding
/// must give protobuf-c's bytes exactly, and the strict decoder protobuf-c's values wherever it takes
/// the bytes.
@Suite("Sample pages against protobuf-c")
struct SamplePageCodecTests {
    // MARK: Checks

    /// The strict decoder's value for `bytes` (nil: left to protobuf-c), checked against protobuf-c's;
    /// and `decodeServerFrame` gives protobuf-c's outcome (the same frame, or the same error) whatever
    /// the bytes.
    @discardableResult
    private func checkDecoding(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ServerFrame? {
        let direct = bytes.withUnsafeBufferPointer { ProtoReference.strictServerFrame($0) }
        let (unpacked, decoded) = serverFrameOutcomes(bytes)
        // Compared first, so that a failure names the bytes instead of printing whole pages.
        let agree = decoded == unpacked
        #expect(agree, "bytes \(bytes.prefix(64))", sourceLocation: sourceLocation)
        if let direct {
            let same = unpacked == .success(direct)
            #expect(same, "bytes \(bytes.prefix(64))", sourceLocation: sourceLocation)
        }
        return direct
    }

    /// Checks that `append` encodes `frame` directly to protobuf-c's bytes; returns its message bytes.
    @discardableResult
    private func checkEncoding(_ frame: ServerFrame, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        var direct: [UInt8] = [1, 2, 3]  // appending after existing output
        WireCodec.append(frame, to: &direct)
        var packed: [UInt8] = [1, 2, 3]
        ProtoReference.appendByProtobufC(frame, to: &packed)
        let difference = firstDifference(direct, packed)
        #expect(
            difference == nil, "first differing byte \(difference ?? 0) of \(Named(frame).testDescription)",
            sourceLocation: sourceLocation)
        return Array(direct.dropFirst(3 + FrameDecoder.headerSize))
    }

    /// The first index at which `left` and `right` differ (a byte, or where one ends); nil when equal.
    private func firstDifference(_ left: [UInt8], _ right: [UInt8]) -> Int? {
        guard left != right else { return nil }
        return zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(left.count, right.count)
    }

    // MARK: Pages

    private static let callIDs: [UInt64] = [0, 1, 300, .max]

    /// A page of `count` samples shaped like a watch's: alternating steps and heart rate from one
    /// app, now and then a workout, a category or metadata.
    private static func watchPage(_ count: Int) -> [Sample] {
        (0..<count).map { index in
            let start = 1_700_000_000_000_000 + Int64(index) * 60_000_000
            var type: ObjectType = index % 2 == 0 ? .stepCount : .heartRate
            var value = SampleValue.quantity(Quantity(Double(index % 180) + 0.5, index % 2 == 0 ? "count" : "count/min"))
            if index % 25 == 3 { value = .category(Int64(index % 5)) }
            if index % 50 == 7 {
                type = .workout
                value = .workout(WorkoutDetails(
                    activityType: "walking", durationMicros: 600_000_000, totalEnergy: Quantity(42.5, "kcal"),
                    totalDistance: Quantity(0.8, "km")))
            }
            return Sample(
                uuid: "6F9619FF-8B86-D011-B42D-\(index)", type: type, startMicros: start, endMicros: start + 59_000_000,
                value: value, metadata: index % 10 == 0 ? ["HKMetadataKeyHeartRateMotionContext": "\(index % 3)"] : [:],
                sourceAppID: index % 100 == 99 ? "com.example.other" : "com.example.watchsync", createdMicros: start + 1_000)
        }
    }

    /// Samples with empty strings and fields everywhere.
    private static let emptySamples: [Sample] = [
        Sample(uuid: "", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .quantity(Quantity(0, ""))),
        Sample(uuid: "", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .category(0), metadata: ["": ""]),
        Sample(
            uuid: "", type: .workout, startMicros: 0, endMicros: 0,
            value: .workout(WorkoutDetails(
                activityType: "", durationMicros: 0, totalEnergy: Quantity(0, ""), totalDistance: Quantity(0, "")))),
        Sample(
            uuid: "e", type: .workout, startMicros: 0, endMicros: 0,
            value: .workout(WorkoutDetails(activityType: "", durationMicros: 0, totalDistance: Quantity(-0.0, "m")))),
    ]

    /// Unicode and catalogue-equal spellings, which decode to equal values.
    private static let unicodeSamples: [Sample] = [
        Sample(
            uuid: "ünïcödé-✓-🫀", type: ObjectType("H\u{212A}QuantityTypeIdentifierStepCount"), startMicros: 1,
            endMicros: 2,
            value: .quantity(Quantity(1, "count/min")), metadata: ["Zürich": Samples.unicode, "心": "拍", "🔑": ""],
            sourceAppID: "org.example.睡眠", createdMicros: 3),
        Sample(
            uuid: String(repeating: "長", count: 300), type: Samples.oddType, startMicros: -1, endMicros: -1,
            value: .workout(WorkoutDetails(activityType: "cycling 🚲", durationMicros: 5, totalEnergy: Quantity(1, "kJ"))),
            metadata: Dictionary(
                uniqueKeysWithValues: (0..<200).map { ("ключ \($0)", String(repeating: "ü", count: $0)) })),
    ]

    /// Strings with NULs: both paths cut them (C strings), so they decode to the cut values.
    private static let nulSamples: [Sample] = [
        Sample(
            uuid: "before\u{0}after", type: ObjectType("HKQuantityTypeIdentifierStepCount\u{0}x"), startMicros: 1,
            endMicros: 2,
            value: .quantity(Quantity(2, "k\u{0}g")),
            metadata: ["a\u{0}x": "1", "a\u{0}y": "2", "a": "3", "\u{0}": "4", "b": "v\u{0}w", "a\u{0}": "5"],
            sourceAppID: "\u{0}hidden", createdMicros: 4),
        Sample(
            uuid: "\u{0}", type: ObjectType("\u{0}"), startMicros: 1, endMicros: 2,
            value: .workout(WorkoutDetails(
                activityType: "run\u{0}ning", durationMicros: 1, totalEnergy: Quantity(1, "\u{0}kcal")))),
    ]

    /// Pages that decode back to themselves.
    private static let pages: [[Sample]] = [
        [], [Samples.healthSamples[0]], Samples.healthSamples, emptySamples, unicodeSamples, Samples.bigPage,
        watchPage(4_096),
    ]

    /// Anchored pages that decode back to themselves.
    private static let anchoredPages: [AnchoredPage] = [
        AnchoredPage(),
        AnchoredPage(done: true),
        AnchoredPage(newAnchor: [0]),
        AnchoredPage(
            added: Samples.healthSamples, deletedUUIDs: ["", "gone", "ünï"],
            deletedSourceAppIDs: ["com.example.a", "", "org.example.睡眠"], newAnchor: patternBytes(48), done: true),
        AnchoredPage(
            deletedUUIDs: (0..<300).map { "deleted-\($0)" },
            deletedSourceAppIDs: (0..<300).map { $0 % 7 == 0 ? "com.example.other" : "com.example.watchsync" }),
        AnchoredPage(added: watchPage(1_000), newAnchor: patternBytes(200, seed: 3)),
        // The deleted lists with different lengths: carried as they are, either way round.
        AnchoredPage(deletedUUIDs: ["a", "b", "c"], deletedSourceAppIDs: ["s"], done: true),
        AnchoredPage(added: [Samples.healthSamples[0]], deletedUUIDs: ["a"], deletedSourceAppIDs: ["s", "t", ""]),
        AnchoredPage(deletedSourceAppIDs: [""]),
    ]

    /// Every frame carrying a page, by call id.
    private static let frames: [ServerFrame] = callIDs.flatMap { callID in
        pages.map { ServerFrame(callID: callID, response: .streamItem(.samples($0))) }
            + anchoredPages.map { ServerFrame(callID: callID, response: .streamItem(.anchoredPage($0))) }
    }

    // MARK: Encoding

    @Test func samplePageFramesEncodeToProtobufCBytes() {
        for frame in Self.frames { checkEncoding(frame) }
    }

    @Test func framesWithAStatusEncodeToProtobufCBytes() {
        let statuses = [Status.ok, Status(code: .internal, domain: .noData, message: "odd\u{0}but encodable ✓")]
        for status in statuses {
            for page in [[], Samples.healthSamples] {
                checkEncoding(ServerFrame(callID: 9, status: status, response: .streamItem(.samples(page))))
            }
            let anchored = AnchoredPage(
                added: Samples.healthSamples, deletedUUIDs: ["x"], deletedSourceAppIDs: ["s"], newAnchor: [1], done: true)
            checkEncoding(ServerFrame(callID: 9, status: status, response: .streamItem(.anchoredPage(anchored))))
        }
    }

    @Test func nulsNaNsAndExtremesEncodeToProtobufCBytes() {
        let odd = Self.nulSamples + [
            Sample(uuid: "nan", type: .bodyMass, startMicros: .min, endMicros: .max, value: .quantity(Quantity(.nan, "kg"))),
            Sample(
                uuid: "signalling", type: .bodyMass, startMicros: -1, endMicros: 1,
                value: .quantity(Quantity(Double(bitPattern: 0x7FF0_0000_0000_0001), "kg")), createdMicros: .min),
            Sample(uuid: "inf", type: .stepCount, startMicros: 0, endMicros: 0, value: .quantity(Quantity(-.infinity, "count"))),
            Sample(uuid: "cat", type: .sleepAnalysis, startMicros: 0, endMicros: 0, value: .category(-1), createdMicros: .max),
            Sample(
                uuid: "w", type: .workout, startMicros: 0, endMicros: 0,
                value: .workout(WorkoutDetails(activityType: "x", durationMicros: .min, totalEnergy: Quantity(.nan, "")))),
        ]
        for callID in Self.callIDs {
            checkEncoding(ServerFrame(callID: callID, response: .streamItem(.samples(odd))))
            let anchored = AnchoredPage(
                added: odd, deletedUUIDs: ["a\u{0}b", "\u{0}", ""], deletedSourceAppIDs: ["com\u{0}x", "\u{0}", "s"],
                newAnchor: [0, 0], done: false)
            checkEncoding(ServerFrame(callID: callID, response: .streamItem(.anchoredPage(anchored))))
        }
    }

    @Test func metadataGoesOutInProtobufCOrder() {
        // Many entries (the sort's larger paths) and keys equal up to a NUL (ties).
        var metadata: [String: String] = [:]
        for index in 0..<300 { metadata["k\(index % 7)\u{0}\(index)"] = "\(index)" }
        for index in 0..<100 { metadata["key \(99 - index)"] = "v" }
        let sample = Sample(uuid: "m", type: .stepCount, startMicros: 0, endMicros: 0, value: .category(1), metadata: metadata)
        checkEncoding(ServerFrame(callID: 1, response: .streamItem(.samples([sample, sample]))))
    }

    // MARK: Decoding

    @Test func samplePageFramesDecodeStrictlyToTheSameValue() {
        for frame in Self.frames {
            let decoded = checkDecoding(checkEncoding(frame))
            #expect(decoded != nil, "\(Named(frame).testDescription)")
            let same = decoded == frame
            #expect(same, "\(Named(frame).testDescription)")
        }
    }

    @Test func nulsAreCutAsProtobufCCutsThem() throws {
        let frame = ServerFrame(callID: 2, response: .streamItem(.samples(Self.nulSamples)))
        let decoded = try #require(checkDecoding(checkEncoding(frame)))
        guard case .samples(let samples)? = decoded.item else {
            Issue.record("not a page")
            return
        }
        #expect(samples[0].uuid == "before")
        #expect(samples[0].type == .stepCount)
        #expect(samples[0].value == .quantity(Quantity(2, "k")))
        #expect(samples[0].sourceAppID == "")
        #expect(samples[0].metadata["b"] == "v")
        #expect(samples[1].type == ObjectType(""))
    }

    @Test func catalogueTypesDecodeToTheSharedValues() throws {
        let page = [Sample(uuid: "a", type: .heartRate, startMicros: 0, endMicros: 0, value: .category(0))]
        let frame = ServerFrame(callID: 1, response: .streamItem(.samples(page + [page[0]] + Self.unicodeSamples)))
        let decoded = try #require(checkDecoding(checkEncoding(frame)))
        guard case .samples(let samples)? = decoded.item else {
            Issue.record("not a page")
            return
        }
        #expect(TypeCatalogue.spelledIndex(of: samples[0].type) != nil)
        #expect(TypeCatalogue.spelledIndex(of: samples[1].type) != nil)
        // The Kelvin-sign spelling is stepCount, in the catalogue's bytes.
        #expect(samples[2].type == .stepCount)
        #expect(TypeCatalogue.spelledIndex(of: samples[2].type) == TypeCatalogue.spelledIndex(of: .stepCount))
        #expect(TypeCatalogue.spelledIndex(of: samples[3].type) == nil)
    }

    @Test func invalidUTF8AndRepeatedKeysDecodeAsProtobufCDoes() throws {
        let sample =
            field([0x0A], [0xFF, 0xFE, 0x41])  // uuid
            + field([0x12], [0xC3])  // type: a cut two-byte sequence
            + field([0x52], field([0x12], [0xED, 0xA0, 0x80]))  // quantity: a surrogate as unit
            + entry([0xFF], Array("1".utf8)) + entry([0xFE], Array("2".utf8))  // both keys read as U+FFFD
            + entry(Array("k".utf8), [0x80]) + entry(Array("dup".utf8), Array("first".utf8))
            + entry(Array("dup".utf8), Array("second".utf8))
            + field([0xAA, 0x01], [0xF0, 0x9F, 0x98])  // source_app_id: a cut emoji
        let bytes = pageFrame([sample, sample])
        checkDecoding(bytes)
        let decoded = try #require(try? WireCodec.decodeServerFrame(bytes[...]))
        guard case .samples(let samples)? = decoded.item else {
            Issue.record("not a page")
            return
        }
        #expect(samples.count == 2)
        #expect(samples[0].uuid == "\u{FFFD}\u{FFFD}A")
        #expect(samples[0].metadata == ["\u{FFFD}": "2", "k": "\u{FFFD}", "dup": "second"])
        #expect(samples[0] == samples[1])
    }

    @Test func unusualEncodingsAreAgreeWithProtobufC() {
        let uuid = field([0x0A], Array("u".utf8))
        let quantity = field([0x52], [0x09] + doubleBytes(1.5))
        let cases: [[UInt8]] = [
            // unknown fields: Sample, Quantity, Workout, MetadataEntry, SamplePage, StreamItem, ServerFrame
            pageFrame([uuid + quantity + [0x28, 0x01]]),
            pageFrame([uuid + field([0x52], [0x18, 0x01])]),
            pageFrame([uuid + field([0x62], [0x28, 0x01])]),
            pageFrame([uuid + quantity + field([0xA2, 0x01], [0x18, 0x01])]),
            frame(item: field([0xA2, 0x03], field([0x0A], uuid + quantity) + [0x10, 0x01])),
            frame(item: field([0xA2, 0x03], field([0x0A], uuid + quantity)) + [0x08, 0x01]),
            pageFrame([uuid + quantity]) + [0x20, 0x01],
            // a status (a stream's items carry none)
            pageFrame([uuid + quantity]) + [0x12, 0x00],
            // singular fields twice (protobuf-c keeps the last, or merges)
            pageFrame([uuid + uuid + quantity]),
            pageFrame([uuid + quantity + [0x18, 0x01, 0x18, 0x02]]),
            pageFrame([uuid + field([0x52], [0x09] + doubleBytes(1) + [0x09] + doubleBytes(2))]),
            pageFrame([uuid + field([0x62], [0x10, 0x01, 0x10, 0x02])]),
            pageFrame([uuid + quantity + field([0xA2, 0x01], field([0x0A], [0x61]) + field([0x0A], [0x62]))]),
            [0x08, 0x01] + pageFrame([uuid + quantity]),
            frame(item: field([0xA2, 0x03], field([0x0A], uuid + quantity))) + frame(item: field([0xA2, 0x03], [])),
            // two value cases (the last wins), or none (undecodable)
            pageFrame([uuid + quantity + [0x58, 0x01]]),
            pageFrame([uuid + quantity + quantity]),
            pageFrame([uuid]),
            // non-shortest keys
            pageFrame([[0x8A, 0x00, 0x01, 0x75] + quantity]),
            pageFrame([uuid + quantity + [0xA2, 0x81, 0x00, 0x00]]),
            pageFrame([uuid + quantity + [0xB0, 0x81, 0x00, 0x01]]),
            frame(item: [0xA2, 0x83, 0x00, 0x00]),
            [0x88, 0x00, 0x01] + pageFrame([uuid + quantity]),
            // wrong wire types
            pageFrame([uuid + field([0x52], [0x08, 0x01])]),
            pageFrame([uuid + quantity + [0x19] + doubleBytes(1)]),
            pageFrame([[0x08, 0x01] + quantity]),
            // truncated fields
            pageFrame([uuid + field([0x52], [0x09, 0x00, 0x00, 0x00])]),
            pageFrame([uuid + quantity + [0x18]]),
            pageFrame([uuid + quantity + [0x18, 0x80]]),
            pageFrame([uuid + quantity + [0x0A, 0x05, 0x61]]),
            // AnchoredPage: done not 0 or 1, done twice, anchor twice, deleted_source_app_ids (5) as a
            // varint (wrong wire type) or with a non-shortest key, an unknown field
            anchoredFrame([0x20, 0x02]),
            anchoredFrame([0x20, 0x81, 0x00]),
            anchoredFrame([0x20, 0x01, 0x20, 0x01]),
            anchoredFrame(field([0x1A], [1]) + field([0x1A], [2])),
            anchoredFrame([0x28, 0x01]),
            anchoredFrame(field([0xAA, 0x00], [0x73])),
            anchoredFrame([0x30, 0x01]),
            anchoredFrame(field([0x32], [0x73])),
            anchoredFrame(field([0x0A], uuid)),
            // both page kinds in one item; no item case; another item case
            frame(item: field([0xA2, 0x03], []) + field([0xAA, 0x03], [])),
            frame(item: []),
            frame(item: field([0x62], [])),
            [0x08, 0x01],
            [],
        ]
        for bytes in cases {
            checkDecoding(bytes)
        }
    }

    @Test func oddButAcceptedEncodingsAgree() {
        let uuid = field([0x0A], Array("u".utf8))
        let quantity = field([0x52], [0x09] + doubleBytes(1.5) + field([0x12], Array("kg".utf8)))
        let tenByteVarint: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        let cases: [[UInt8]] = [
            // fields out of order, metadata entries apart
            pageFrame([[0xB0, 0x01, 0x05] + entry([0x61], [0x62]) + quantity + uuid + entry([0x63], []) + [0x18, 0x01]]),
            pageFrame([
                field([0x12], Array("HKQuantityTypeIdentifierHeartRate".utf8)) + field([0xAA, 0x01], Array("s".utf8)) + quantity,
            ]),
            // explicit zeros and empties: uuid, dates, -0.0, category 0, empty sub-messages and entries
            pageFrame([field([0x0A], []) + [0x18, 0x00, 0x20, 0x00] + field([0x52], [0x09] + doubleBytes(-0.0))]),
            pageFrame([uuid + [0x58, 0x00] + field([0xA2, 0x01], []) + field([0xAA, 0x01], []) + [0xB0, 0x01, 0x00]]),
            pageFrame([uuid + field([0x52], [])]),
            pageFrame([uuid + field([0x62], field([0x1A], []) + field([0x22], []))]),
            pageFrame([uuid + field([0x62], [])]),
            // non-minimal and 10-byte varints
            pageFrame([uuid + quantity + [0x18, 0x81, 0x00] + [0x20] + tenByteVarint + [0xB0, 0x01] + tenByteVarint]),
            pageFrame([uuid + [0x58] + tenByteVarint]),
            [0x08] + tenByteVarint + pageFrame([uuid + quantity], callID: []),
            // call_id after the item, an empty page, an empty sample list in an anchored page
            pageFrame([uuid + quantity], callID: []) + [0x08, 0x07],
            pageFrame([]),
            anchoredFrame([]),
            anchoredFrame([0x20, 0x00]),
            // an anchored page's fields interleaved and out of order
            anchoredFrame(
                [0x20, 0x01] + field([0x12], Array("gone".utf8)) + field([0x0A], uuid + quantity) + field([0x1A], [9])
                    + field([0x12], []) + field([0x0A], quantity)),
            anchoredFrame(
                field([0x2A], Array("s".utf8)) + field([0x12], Array("gone".utf8)) + field([0x2A], [])
                    + field([0x0A], uuid + quantity) + field([0x2A], [0xFF, 0x00, 0x41]) + field([0x12], [])),
            // deleted lists of different lengths, or source app ids alone
            anchoredFrame(field([0x12], Array("a".utf8)) + field([0x12], Array("b".utf8)) + field([0x2A], Array("s".utf8))),
            anchoredFrame(field([0x2A], Array("s".utf8)) + [0x20, 0x01]),
        ]
        for bytes in cases {
            checkDecoding(bytes)
        }
    }

    @Test func otherFramesAreAgreeWithProtobufC() {
        let others =
            Samples.serverFrames.filter { frame in
                switch frame.item {
                case .samples?, .anchoredPage?: return false
                default: return true
                }
            } + [
                ServerFrame(callID: 1, response: .streamItem(.observed(type: .stepCount, changedMicros: 5))),
                ServerFrame(callID: 1, response: .streamItem(.ping(PingResponse(payload: [1], brokerTimeMicros: 2, sequence: 3)))),
                ServerFrame(callID: 1, status: .ok),
                ServerFrame(callID: 1, status: .ok, response: .streamItem(.samples(Samples.healthSamples))),
            ]
        for frame in others {
            var buffer: [UInt8] = []
            WireCodec.append(frame, to: &buffer)
            checkDecoding(Array(buffer.dropFirst(FrameDecoder.headerSize)))
        }
    }

    @Test func truncatedPagesNeverDisagree() {
        let frames = [
            ServerFrame(callID: 300, response: .streamItem(.samples(Array(Samples.healthSamples.prefix(12))))),
            ServerFrame(callID: 1, response: .streamItem(.anchoredPage(Self.anchoredPages[3]))),
        ]
        for frame in frames {
            let bytes = checkEncoding(frame)
            for end in 0..<bytes.count {
                checkDecoding(Array(bytes[..<end]))
            }
        }
    }

    @Test func mutatedPagesNeverDisagree() {
        var generator = ByteMutator(seed: 0x5A3B)
        var small: [ServerFrame] = Samples.healthSamples.indices.map { index in
            ServerFrame(callID: UInt64(index), response: .streamItem(.samples([Samples.healthSamples[index]])))
        }
        small += Self.emptySamples.map { ServerFrame(callID: 7, response: .streamItem(.samples([$0, $0]))) }
        small.append(ServerFrame(callID: 8, response: .streamItem(.samples(Self.nulSamples))))
        small.append(ServerFrame(callID: 9, response: .streamItem(.anchoredPage(
            AnchoredPage(
                added: [Samples.healthSamples[10]], deletedUUIDs: ["d", ""], deletedSourceAppIDs: ["s", "com.example.app"],
                newAnchor: [1, 2], done: true)))))
        var accepted = 0
        for frame in small {
            let original = checkEncoding(frame)
            guard original.count < 2_000 else { continue }
            for _ in 0..<200 {
                let bytes = generator.mutated(original)
                if checkDecoding(bytes) != nil { accepted += 1 }
            }
        }
        // Many mutations (in string bytes, dates, doubles) still decode directly.
        #expect(accepted > 200)
    }

    // MARK: Hand-made bytes

    /// `value` as a base-128 varint.
    private func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    /// A length-delimited field: `key`, the length, `body`.
    private func field(_ key: [UInt8], _ body: [UInt8]) -> [UInt8] {
        key + varint(UInt64(body.count)) + body
    }

    /// A metadata entry field (20) of a Sample.
    private func entry(_ key: [UInt8], _ value: [UInt8]) -> [UInt8] {
        field([0xA2, 0x01], field([0x0A], key) + field([0x12], value))
    }

    /// A double's 8 little-endian bytes.
    private func doubleBytes(_ value: Double) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * $0)) }
    }

    /// A ServerFrame: `callID` bytes, then stream_item (3) holding `item`.
    private func frame(item: [UInt8], callID: [UInt8] = [0x08, 0x01]) -> [UInt8] {
        callID + field([0x1A], item)
    }

    /// A ServerFrame holding a SamplePage of the samples `samples` (each a Sample's bytes).
    private func pageFrame(_ samples: [[UInt8]], callID: [UInt8] = [0x08, 0x01]) -> [UInt8] {
        frame(item: field([0xA2, 0x03], samples.flatMap { field([0x0A], $0) }), callID: callID)
    }

    /// A ServerFrame holding an AnchoredPage of bytes `page`.
    private func anchoredFrame(_ page: [UInt8]) -> [UInt8] {
        frame(item: field([0xAA, 0x03], page))
    }
}
