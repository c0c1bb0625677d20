import BrokerModel
import Foundation
@testable import healthctl
import Testing

/// The Apple Health export parser on small hand-written exports (with the real format's inline DTD).
@Suite struct AppleHealthParserTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-06-01 10:00:00 +0200"/>

        """

    /// Parses `body` inside the header, with batches of `batchSize`; every chunk and the counts.
    static func parse(_ body: String, batchSize: Int = 1000) -> (chunks: [AppleHealthChunk], counts: AppleHealthCounts, ok: Bool) {
        var chunks: [AppleHealthChunk] = []
        let parser = AppleHealthParser(batchSize: batchSize) { chunks.append($0) }
        let ok = parser.parse(Data((header + body + "</HealthData>\n").utf8))
        return (chunks, parser.counts, ok)
    }

    static func samples(_ chunks: [AppleHealthChunk]) -> [Sample] { chunks.flatMap(\.batch.samples) }

    static func record(_ type: String, _ value: String, unit: String? = "count", source: String = "Phone",
                       start: String = "2019-05-14 18:52:09 -0400", end: String = "2019-05-14 18:53:09 -0400") -> String {
        let unitAttribute = unit.map { " unit=\"\($0)\"" } ?? ""
        return " <Record type=\"\(type)\"\(unitAttribute) value=\"\(value)\" sourceName=\"\(source)\" startDate=\"\(start)\" endDate=\"\(end)\"/>\n"
    }

    @Test(arguments: [
        ("2019-05-14 18:52:09 -0400", Int64(1_557_874_329_000_000)),
        ("2019-05-14 22:52:09 +0000", Int64(1_557_874_329_000_000)),
        ("2019-05-15 04:22:09 +0530", Int64(1_557_874_329_000_000)),
        ("1970-01-01 00:00:00 +0000", Int64(0)),
        ("2024-02-29 23:59:59 -1200", Int64(1_709_294_399_000_000)),
    ])
    func localOffsetsBecomeUTCMicroseconds(text: String, micros: Int64) {
        #expect(AppleHealthDate.micros(text) == micros)
    }

    @Test(arguments: ["2019-05-14T18:52:09-0400", "2019-02-30 10:00:00 +0000", "2019-05-14 18:52:09", "2019-05-14 25:00:00 +0000", "2019-05-14 18:52:09 *0400"])
    func malformedDatesAreRefused(text: String) {
        #expect(AppleHealthDate.micros(text) == nil)
    }

    @Test func theInlineDTDParsesAndRecordsConvertToCanonicalUnits() throws {
        let result = Self.parse(
            Self.record("HKQuantityTypeIdentifierDistanceWalkingRunning", "2", unit: "mi")
                + Self.record("HKQuantityTypeIdentifierBloodGlucose", "5.5", unit: "mmol&lt;180.15588&gt;/L")
                + Self.record("HKQuantityTypeIdentifierBodyTemperature", "98.6", unit: "degF")
                + Self.record("HKQuantityTypeIdentifierStepCount", "42"))
        #expect(result.ok)
        let samples = Self.samples(result.chunks)
        try #require(samples.count == 4)
        guard case .quantity(let distance) = samples[0].value else { Issue.record("not a quantity"); return }
        #expect(distance.unit == "m")
        #expect(abs(distance.value - 3_218.688) < 1e-6)
        guard case .quantity(let glucose) = samples[1].value else { Issue.record("not a quantity"); return }
        #expect(glucose.unit == "mg/dL")
        #expect(abs(glucose.value - 99.083) < 0.01)
        guard case .quantity(let temperature) = samples[2].value else { Issue.record("not a quantity"); return }
        #expect(abs(temperature.value - 37) < 1e-9)
        #expect(samples[3].startMicros == 1_557_874_329_000_000)
        #expect(samples[3].endMicros == 1_557_874_389_000_000)
        #expect(result.counts.records == 4)
    }

    @Test func unknownTypesAreCountedPerTypeNeverDropped() {
        let result = Self.parse(
            Self.record("HKQuantityTypeIdentifierMadeUpMeasure", "1") + Self.record("HKQuantityTypeIdentifierMadeUpMeasure", "2")
                + Self.record("HKDataTypeSleepDurationGoal", "8", unit: "hr") + Self.record("HKQuantityTypeIdentifierStepCount", "5")
                + " <ActivitySummary dateComponents=\"2019-05-14\" activeEnergyBurned=\"400\"/>\n")
        #expect(Self.samples(result.chunks).count == 1)
        #expect(result.counts.records == 4)
        #expect(result.counts.unknownTypes == ["HKQuantityTypeIdentifierMadeUpMeasure": 2, "HKDataTypeSleepDurationGoal": 1])
        #expect(result.counts.skippedElements == ["ActivitySummary": 1])
    }

    @Test func aUnitOfTheWrongDimensionIsCountedAsInvalidWithItsReason() throws {
        let result = Self.parse(Self.record("HKQuantityTypeIdentifierStepCount", "5", unit: "kg") + Self.record("HKQuantityTypeIdentifierStepCount", "6"))
        #expect(Self.samples(result.chunks).count == 1)
        let invalid = try #require(result.counts.invalid["HKQuantityTypeIdentifierStepCount"])
        #expect(invalid.count == 1)
        #expect(invalid.reason.contains("kg"), "\(invalid.reason)")
    }

    @Test func categoryValuesByHealthKitName() {
        let result = Self.parse(
            Self.record("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepREM", unit: nil)
                + Self.record("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisInBed", unit: nil, start: "2019-05-14 19:00:00 -0400", end: "2019-05-14 19:10:00 -0400")
                + Self.record("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisDreaming", unit: nil))
        #expect(Self.samples(result.chunks).map(\.value) == [.category(5), .category(0)])
        #expect(result.counts.invalid["HKCategoryTypeIdentifierSleepAnalysis"]?.count == 1)
    }

    @Test func meBecomesCharacteristicsAndNotSetIsLeftOut() {
        let result = Self.parse("""
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1987-06-15" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeABNegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierWheelchairUse="HKWheelchairUseYes"/>

            """)
        let values = Dictionary(uniqueKeysWithValues: result.counts.characteristics.map { ($0.type, $0.value) })
        #expect(values == [
            "HKCharacteristicTypeIdentifierDateOfBirth": "1987-06-15",
            "HKCharacteristicTypeIdentifierBiologicalSex": "female",
            "HKCharacteristicTypeIdentifierBloodType": "AB-",
            "HKCharacteristicTypeIdentifierWheelchairUse": "yes",
        ])
        #expect(AppleHealthParser.characteristicValue(key: "HKCharacteristicTypeIdentifierFitzpatrickSkinType", "HKFitzpatrickSkinTypeIV") == "IV")
        #expect(AppleHealthParser.characteristicValue(key: "HKCharacteristicTypeIdentifierBloodType", "HKBloodTypeOPositive") == "O+")
    }

    @Test func workoutsWithAttributeTotalsAndWithWorkoutStatistics() throws {
        let result = Self.parse("""
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" totalDistance="3" totalDistanceUnit="mi" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2019-05-14 07:00:00 -0400" endDate="2019-05-14 07:31:30 -0400">
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2019-05-14 07:00:00 -0400" duration="10" durationUnit="min"/>
             </Workout>
             <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="1890" durationUnit="s" sourceName="Watch" startDate="2019-05-15 07:00:00 -0400" endDate="2019-05-15 07:31:30 -0400">
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2019-05-15 07:00:00 -0400" endDate="2019-05-15 07:31:30 -0400" sum="1255.2" unit="kJ"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceCycling" startDate="2019-05-15 07:00:00 -0400" endDate="2019-05-15 07:31:30 -0400" sum="12" unit="km"/>
             </Workout>

            """)
        let samples = Self.samples(result.chunks)
        try #require(samples.count == 2)
        #expect(result.counts.workouts == 2)
        #expect(result.counts.skippedElements.isEmpty)
        guard case .workout(let running) = samples[0].value, case .workout(let cycling) = samples[1].value else {
            Issue.record("not workouts"); return
        }
        #expect(running.activityType == "running")
        #expect(running.durationMicros == 1_890_000_000)
        #expect(abs((running.totalDistance?.value ?? 0) - 4_828.032) < 1e-6)
        #expect(running.totalEnergy?.value == 300)
        #expect(samples[0].metadata == ["HKIndoorWorkout": "0"])
        #expect(cycling.activityType == "cycling")
        #expect(abs((cycling.totalEnergy?.value ?? 0) - 300) < 1e-9)
        #expect(cycling.totalDistance?.value == 12_000)
    }

    @Test func correlationsAreKeptAsCorrelationsAndTheirTopLevelCopiesRepeats() {
        let systolic = Self.record("HKQuantityTypeIdentifierBloodPressureSystolic", "120", unit: "mmHg", start: "2019-05-14 08:00:00 +0200", end: "2019-05-14 08:00:00 +0200")
        let diastolic = Self.record("HKQuantityTypeIdentifierBloodPressureDiastolic", "80", unit: "mmHg", start: "2019-05-14 08:00:00 +0200", end: "2019-05-14 08:00:00 +0200")
        let correlation = """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Phone" startDate="2019-05-14 08:00:00 +0200" endDate="2019-05-14 08:00:00 +0200">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
            \(systolic)\(diastolic) </Correlation>

            """
        // The top-level copies before the correlation (taken out of the batch) or after it (skipped).
        for body in [systolic + diastolic + correlation, correlation + systolic + diastolic] {
            let result = Self.parse(body)
            let samples = Self.samples(result.chunks)
            #expect(samples.map(\.type) == [.bloodPressure])
            guard case .correlation(let members) = samples.first?.value else { Issue.record("not a correlation"); continue }
            #expect(members.map(\.type) == [.bloodPressureSystolic, .bloodPressureDiastolic])
            #expect(samples.first?.metadata == ["HKWasUserEntered": "1"])
            #expect(result.counts.correlations == 1)
            #expect(result.counts.records == 4)
            #expect(result.counts.repeats == 2)
            #expect(result.chunks.map(\.batch.repeats).reduce(0, +) == 2)
        }
        // Same content, same uuids, whatever the order.
        let first = Self.samples(Self.parse(systolic + diastolic + correlation).chunks)
        let second = Self.samples(Self.parse(correlation + systolic + diastolic).chunks)
        #expect(first == second)
    }

    @Test func membersTakenOutOfABatchLeaveTheOtherSamplesInOrder() {
        let at = "2019-05-14 08:00:00 +0200"
        let systolic = Self.record("HKQuantityTypeIdentifierBloodPressureSystolic", "120", unit: "mmHg", start: at, end: at)
        let diastolic = Self.record("HKQuantityTypeIdentifierBloodPressureDiastolic", "80", unit: "mmHg", start: at, end: at)
        func steps(_ value: Int) -> String {
            Self.record("HKQuantityTypeIdentifierStepCount", "\(value)", start: "2019-05-14 08:0\(value):00 +0200", end: "2019-05-14 08:0\(value):30 +0200")
        }
        let correlation = """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Phone" startDate="\(at)" endDate="\(at)">
            \(systolic)\(diastolic) </Correlation>

            """
        let body = steps(1) + systolic + steps(2) + diastolic + steps(3) + correlation + steps(4) + systolic
        func describe(_ sample: Sample) -> String {
            if case .quantity(let quantity) = sample.value { return "\(Int(quantity.value))" }
            return sample.type == .bloodPressure ? "bp" : "?"
        }
        // One batch: the top-level systolic and diastolic leave it, the others keep their order,
        // and the systolic after the correlation is a repeat.
        let whole = Self.parse(body)
        #expect(whole.chunks.map { $0.batch.samples.map(describe) } == [["1", "2", "3", "bp", "4"]])
        #expect(whole.counts.repeats == 3)
        // Batches of four: the members went out plain in the first batch; the correlation (with its two objects) fills the second.
        let small = Self.parse(body, batchSize: 4)
        #expect(small.chunks.map { $0.batch.samples.map(describe) } == [["1", "120", "2", "80"], ["3", "bp"], ["4", "120"]])
    }

    @Test func aCorrelationTheBrokerCannotKeepLeavesItsRecordsAsSamples() {
        let systolic = Self.record("HKQuantityTypeIdentifierBloodPressureSystolic", "120", unit: "mmHg", start: "2019-05-14 08:00:00 +0200", end: "2019-05-14 08:00:00 +0200")
        // A blood pressure correlation without its diastolic record is refused as a correlation.
        let half = Self.parse("""
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Phone" startDate="2019-05-14 08:00:00 +0200" endDate="2019-05-14 08:00:00 +0200">
            \(systolic) </Correlation>

            """)
        #expect(Self.samples(half.chunks).map(\.type) == [.bloodPressureSystolic])
        #expect(half.counts.invalid["HKCorrelationTypeIdentifierBloodPressure"]?.count == 1)
        // A correlation type the broker does not know: counted, its records imported.
        let odd = Self.parse("""
             <Correlation type="HKCorrelationTypeIdentifierSomethingNew" sourceName="Phone" startDate="2019-05-14 08:00:00 +0200" endDate="2019-05-14 08:00:00 +0200">
            \(systolic) </Correlation>

            """)
        #expect(Self.samples(odd.chunks).map(\.type) == [.bloodPressureSystolic])
        #expect(odd.counts.unknownTypes["HKCorrelationTypeIdentifierSomethingNew"] == 1)
    }

    @Test func aBatchCountsCorrelationObjectsTowardsItsSize() {
        var body = ""
        for minute in 0..<10 {
            let at = "2019-05-14 08:0\(minute):00 +0200"
            let food = Self.record("HKQuantityTypeIdentifierDietaryEnergyConsumed", "\(100 + minute)", unit: "kcal", start: at, end: at)
                + Self.record("HKQuantityTypeIdentifierDietaryProtein", "\(10 + minute)", unit: "g", start: at, end: at)
            body += """
                 <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Phone" startDate="\(at)" endDate="\(at)">
                \(food) </Correlation>

                """
        }
        let result = Self.parse(body, batchSize: 7)
        // Three samples a meal (the correlation and two objects): two meals a batch of at most seven.
        #expect(result.chunks.map(\.batch.samples.count) == [2, 2, 2, 2, 2])
        #expect(Self.samples(result.chunks).allSatisfy { $0.type == .food })
    }

    @Test func uuidsComeFromContentAndSourcesBecomeStableAppIDs() {
        let body = Self.record("HKQuantityTypeIdentifierStepCount", "5", source: "Anna’s iPhone")
            + Self.record("HKQuantityTypeIdentifierStepCount", "5", source: "Anna’s Apple Watch")
        let first = Self.parse(body)
        let second = Self.parse(body)
        let samples = Self.samples(first.chunks)
        #expect(samples.map(\.uuid) == Self.samples(second.chunks).map(\.uuid))
        #expect(Set(samples.map(\.uuid)).count == 2)
        // Time-ordered: the start's Unix milliseconds lead (1557874329000 = 0x016ab88bc5a8), version 8.
        #expect(samples.allSatisfy { $0.uuid.hasPrefix("016ab88b-c5a8-8") }, "\(samples.map(\.uuid))")
        // Each chunk is one source's: the batch names the app, its samples name none.
        #expect(first.chunks.flatMap { chunk in chunk.batch.samples.map { _ in chunk.batch.sourceAppID } }
            == [AppleHealthSource.appID(for: "Anna’s iPhone"), AppleHealthSource.appID(for: "Anna’s Apple Watch")])
        #expect(samples.allSatisfy { $0.sourceAppID.isEmpty })
        #expect(first.chunks.first?.newSources.map(\.name) == ["Anna’s iPhone", "Anna’s Apple Watch"])
        #expect(AppleHealthSource.appID(for: "Anna’s iPhone").hasPrefix("apple-health.anna-s-iphone."))
        #expect(AppleHealthSource.appID(for: "Anna’s iPhone") != AppleHealthSource.appID(for: "Anna's iPhone"))
        #expect(first.counts.perSource == ["Anna’s iPhone": 1, "Anna’s Apple Watch": 1])
    }

    @Test func batchesHoldAtMostTheBatchSize() {
        var body = ""
        for minute in 0..<25 {
            let stamp = "2019-05-14 10:\(minute < 10 ? "0" : "")\(minute):00 +0000"
            body += Self.record("HKQuantityTypeIdentifierStepCount", "\(minute)", start: stamp, end: stamp)
        }
        let result = Self.parse(body, batchSize: 10)
        #expect(result.chunks.map(\.batch.samples.count) == [10, 10, 5])
    }

    /// Records with long metadata: a batch is handed out once its estimated call size reaches
    /// `batchBytes`, well before its count does, so it fits in one frame; nothing is lost or reordered.
    @Test func batchesAreCutByTheirSizeInBytesToo() {
        let long = String(repeating: "x", count: 1_000)
        var body = ""
        for minute in 0..<700 {
            let stamp = "2019-05-14 \(10 + minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60):00 +0000"
            var record = Self.record("HKQuantityTypeIdentifierStepCount", "\(minute)", start: stamp, end: stamp)
            record.removeLast(3) // "/>\n"
            record += ">\n"
            for key in 0..<4 { record += "  <MetadataEntry key=\"note\(key)\" value=\"\(minute)\(long)\"/>\n" }
            body += record + " </Record>\n"
        }
        let result = Self.parse(body, batchSize: 10_000)
        #expect(result.ok)
        let sizes = result.chunks.map { $0.batch.samples.map(AppleHealthParser.wireBytes(of:)) }
        #expect(result.chunks.count >= 2)
        #expect(sizes.allSatisfy { $0.reduce(0, +) <= AppleHealthParser.batchBytes + ($0.max() ?? 0) })
        #expect(sizes.dropLast().allSatisfy { $0.reduce(0, +) >= AppleHealthParser.batchBytes })
        let values = Self.samples(result.chunks).map { sample -> Double in
            if case .quantity(let quantity) = sample.value { quantity.value } else { -1 }
        }
        #expect(values == (0..<700).map(Double.init))
    }

    @Test func anExportThatStopsEarlyIsAFailure() {
        var chunks: [AppleHealthChunk] = []
        let parser = AppleHealthParser(batchSize: 10) { chunks.append($0) }
        let ok = parser.parse(Data((Self.header + Self.record("HKQuantityTypeIdentifierStepCount", "5")).utf8))
        #expect(!ok)
        #expect(parser.failure?.contains("</HealthData>") == true, "\(parser.failure ?? "")")
        #expect(Self.samples(chunks).count == 1)
    }

    @Test func malformedXMLReportsItsLine() {
        var chunks: [AppleHealthChunk] = []
        let parser = AppleHealthParser(batchSize: 10) { chunks.append($0) }
        let ok = parser.parse(Data((Self.header + Self.record("HKQuantityTypeIdentifierStepCount", "5") + " <Record type=\"x\"\n</HealthData>\n").utf8))
        #expect(!ok)
        #expect(parser.failure?.contains("line") == true, "\(parser.failure ?? "")")
        #expect(Self.samples(chunks).count == 1)
    }
}
