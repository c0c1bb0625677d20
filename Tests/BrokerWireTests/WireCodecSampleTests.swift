import BrokerModel
import Testing
@testable import BrokerWire

@Suite("WireCodec samples, queries and data tools")
struct WireCodecSampleTests {
    // MARK: Coverage of the fixtures

    @Test func everySampleShapeIsCovered() {
        var kinds = Set<String>()
        var workouts = Set<String>()
        for sample in Samples.healthSamples {
            switch sample.value {
            case .quantity: kinds.insert("quantity")
            case .category: kinds.insert("category")
            case .workout(let details):
                kinds.insert("workout")
                workouts.insert("\(details.totalEnergy != nil)/\(details.totalDistance != nil)")
            case .correlation(let members):
                kinds.insert(members.isEmpty ? "empty correlation" : "correlation")
            }
        }
        #expect(kinds == ["quantity", "category", "workout", "correlation", "empty correlation"])
        #expect(workouts == ["true/true", "true/false", "false/true", "false/false"])
        #expect(Samples.healthSamples.contains { $0.metadata.isEmpty })
        #expect(Samples.healthSamples.contains { $0.metadata.count > 30 })
        #expect(Samples.healthSamples.contains { $0.metadata.keys.contains { !$0.allSatisfy(\.isASCII) } })
        #expect(Samples.healthSamples.contains { $0.startMicros < 0 && $0.endMicros < 0 })
        let doubles = Samples.healthSamples.flatMap { sample -> [Double] in
            switch sample.value {
            case .quantity(let quantity): [quantity.value]
            case .category: []
            case .workout(let details): [details.totalEnergy?.value, details.totalDistance?.value].compactMap { $0 }
            case .correlation: []
            }
        }
        #expect(doubles.contains { $0 == 0 && $0.sign == .minus })
        #expect(doubles.contains(.greatestFiniteMagnitude))
        #expect(doubles.contains(.leastNonzeroMagnitude))
        #expect(doubles.allSatisfy { $0.isFinite })
    }

    @Test func everyPredicateShapeIsCovered() {
        let options = Set(Samples.predicates.map(\.options.rawValue))
        #expect(options.isSuperset(of: [0, 1, 2, 3]))
        #expect(options.contains { $0 > 3 })
        let bounds = Set(Samples.predicates.map { "\($0.startMicros != nil)/\($0.endMicros != nil)" })
        #expect(bounds == ["false/false", "true/false", "false/true", "true/true"])
    }

    // MARK: Round trips

    @Test(arguments: Samples.predicates)
    func predicateRoundTripsInEveryRequestThatCarriesOne(predicate: SamplePredicate) throws {
        let requests: [Proto.Call.Request] = [
            .delete(uuids: [], type: .stepCount, predicate: predicate),
            .query(SampleQuery(type: .stepCount, predicate: predicate)),
            .anchoredQuery(AnchoredQuery(type: .stepCount, predicate: predicate)),
            .statistics(StatisticsQuery(type: .stepCount, predicate: predicate, options: .sum)),
        ]
        for request in requests {
            let frame = ClientFrame.call(Call(callID: 1, request: request))
            #expect(try roundTrip(frame) == frame)
        }
    }

    @Test func everySortKeyAndIntervalRoundTrips() throws {
        for key in [SampleSort.Key.startDate, .endDate] {
            for descending in [false, true] {
                let frame = ClientFrame.call(Call(
                    callID: 1,
                    request: .query(SampleQuery(type: .heartRate, sort: SampleSort(key: key, descending: descending)))))
                #expect(try roundTrip(frame) == frame)
            }
        }
        for interval in StatisticsInterval.allCases {
            let frame = ClientFrame.call(Call(
                callID: 1,
                request: .statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum, interval: interval))))
            #expect(try roundTrip(frame) == frame)
        }
    }

    @Test func everyBucketPresencePatternRoundTrips() throws {
        for pattern in 0..<16 {
            let bucket = StatisticsBucket(
                startMicros: Int64(pattern), endMicros: Int64(pattern) + 1, sampleCount: UInt64(pattern),
                sum: pattern & 1 != 0 ? 0 : nil, average: pattern & 2 != 0 ? -1.5 : nil,
                minimum: pattern & 4 != 0 ? 0 : nil, maximum: pattern & 8 != 0 ? 1e300 : nil)
            let frame = ServerFrame(callID: 1, response: .statistics(StatisticsResult(unit: "count", buckets: [bucket])))
            #expect(try roundTrip(frame) == frame)
        }
    }

    @Test func samplesRoundTripOneByOne() throws {
        for sample in Samples.healthSamples {
            let frame = ServerFrame(callID: 1, response: .streamItem(.samples([sample])))
            #expect(try roundTrip(frame) == frame)
        }
    }

    @Test func doublesRoundTripBitForBitExceptNegativeZero() throws {
        let values: [Double] = [
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNormalMagnitude, 1e-300,
            0.1, -123_456.789, 0,
        ]
        let samples = values.enumerated().map { index, value in
            Sample(uuid: "\(index)", type: .bodyMass, startMicros: 0, endMicros: 0, value: .quantity(Quantity(value, "kg")))
        }
        let page = ServerFrame(callID: 1, response: .streamItem(.samples(samples)))
        guard case .samples(let decoded)? = try roundTrip(page).item else {
            Issue.record("not a page")
            return
        }
        #expect(decoded.map(Self.quantityBits) == values.map(\.bitPattern))

        // protobuf-c leaves a proto3 double that compares equal to 0 out of the message, -0.0 included:
        // it arrives as +0.0 (equal to -0.0 under ==, so samples still compare equal).
        let negativeZero = Sample(
            uuid: "z", type: .bodyMass, startMicros: 0, endMicros: 0, value: .quantity(Quantity(-0.0, "kg")))
        let frame = ServerFrame(callID: 1, response: .streamItem(.samples([negativeZero])))
        guard case .samples(let zero)? = try roundTrip(frame).item else {
            Issue.record("not a page")
            return
        }
        #expect(zero == [negativeZero])
        #expect(zero.map(Self.quantityBits) == [Double(0).bitPattern])
    }

    @Test func metadataEncodesTheSameWhateverTheDictionaryOrder() throws {
        let pairs = (0..<60).map { ("key-\($0)-ü", "value \($0)") }
        var forward: [String: String] = [:]
        for (key, value) in pairs { forward[key] = value }
        var backward: [String: String] = Dictionary(minimumCapacity: 500)
        for (key, value) in pairs.reversed() { backward[key] = value }
        func page(_ metadata: [String: String]) -> ServerFrame {
            ServerFrame(
                callID: 1,
                response: .streamItem(.samples([
                    Sample(uuid: "u", type: .stepCount, startMicros: 1, endMicros: 2, value: .category(1), metadata: metadata),
                ])))
        }
        #expect(payload(of: page(forward)) == payload(of: page(backward)))
        #expect(try roundTrip(page(backward)) == page(forward))
    }

    @Test func deleteTypeNilTravelsAsEmptyAndPredicateNilAsAbsent() throws {
        let bare = ClientFrame.call(Call(callID: 1, request: .delete(uuids: ["a"], type: nil, predicate: nil)))
        #expect(try roundTrip(bare) == bare)
        let all = ClientFrame.call(Call(callID: 1, request: .delete(uuids: [], type: nil, predicate: .all)))
        #expect(try roundTrip(all) == all)
        #expect(payload(of: bare) != payload(of: all))
        // An empty type identifier is how nil travels.
        let empty = ClientFrame.call(Call(callID: 1, request: .delete(uuids: [], type: ObjectType(""), predicate: nil)))
        #expect(try roundTrip(empty) == .call(Call(callID: 1, request: .delete(uuids: [], type: nil, predicate: nil))))
    }

    @Test func adminDataToolNilsTravelAsEmptyStrings() throws {
        #expect(try roundTrip(.call(Call(callID: 1, request: .adminExport(type: ObjectType(""), appID: ""))))
            == .call(Call(callID: 1, request: .adminExport(type: nil, appID: nil))))
        #expect(try roundTrip(.call(Call(callID: 1, request: .adminAccessLog(appID: "", limit: 3))))
            == .call(Call(callID: 1, request: .adminAccessLog(appID: nil, limit: 3))))
        #expect(payload(of: .call(Call(callID: 1, request: .adminExport(type: nil, appID: nil))))
            == payload(of: .call(Call(callID: 1, request: .adminExport(type: ObjectType(""), appID: "")))))
    }

    @Test func pageNearTheFrameLimitRoundTrips() throws {
        // About 3.5 MiB: thousands of samples with sizeable metadata, under a 4 MiB frame limit.
        let note = String(repeating: "ü", count: 500)
        let samples = (0..<3_500).map { index in
            Sample(
                uuid: "big-\(index)", type: .heartRate, startMicros: Int64(index), endMicros: Int64(index) + 1,
                value: .quantity(Quantity(Double(index), "count/min")), metadata: ["note": note, "i": "\(index)"],
                sourceAppID: "com.example.heart", createdMicros: Int64(index))
        }
        let frame = ServerFrame(callID: 9, response: .streamItem(.samples(samples)))
        var buffer: [UInt8] = []
        WireCodec.append(frame, to: &buffer)
        #expect(buffer.count > 3 << 20)
        #expect(buffer.count < 4 << 20)
        #expect(try WireCodec.decodeServerFrame(try onlyFrame(in: buffer, maxFrameBytes: 4 << 20)) == frame)
    }

    /// The bit pattern of a quantity sample's value.
    private static func quantityBits(_ sample: Sample) -> UInt64 {
        guard case .quantity(let quantity) = sample.value else { return 0 }
        return quantity.value.bitPattern
    }
}
