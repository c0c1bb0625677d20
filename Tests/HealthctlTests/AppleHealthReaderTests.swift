import BrokerModel
import Foundation
@testable import healthctl
import Testing

/// The byte-level reading of an export (libxml2's SAX2 reader, caches, uuids from a reused buffer,
/// one batch per source): what the earlier XMLParser reading gave, it still gives.
@Suite struct AppleHealthReaderTests {
    typealias Export = AppleHealthParserTests

    @Test func entitiesInAttributesAreDecodedAndUUIDsKeepTheirContentFormula() throws {
        let result = Export.parse(
            Export.record("HKQuantityTypeIdentifierStepCount", "12", source: "Sleep &amp; Scale &#x2019;&lt;3&gt;")
                + """
                 <Record type="HKQuantityTypeIdentifierHeartRate" unit="count/min" value="71" sourceName="Watch" startDate="2019-05-14 18:52:09 -0400" endDate="2019-05-14 18:52:09 -0400">
                  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
                  <MetadataEntry key="HKDevicePlacementSide" value="a &amp; b"/>
                 </Record>

                """)
        #expect(result.ok)
        let samples = Export.samples(result.chunks)
        try #require(samples.count == 2)
        #expect(result.counts.perSource == ["Sleep & Scale ’<3>": 1, "Watch": 1])
        // The uuid of each: the version 8 formula over type, source, dates and value and unit as written, then metadata sorted.
        let steps = AppleHealthParser.uuid(
            startMicros: 1_557_874_329_000_000,
            content: ["HKQuantityTypeIdentifierStepCount", "Sleep & Scale ’<3>", "2019-05-14 18:52:09 -0400", "2019-05-14 18:53:09 -0400", "12", "count"]
                .joined(separator: "\n"))
        let heart = AppleHealthParser.uuid(
            startMicros: 1_557_874_329_000_000,
            content: ["HKQuantityTypeIdentifierHeartRate", "Watch", "2019-05-14 18:52:09 -0400", "2019-05-14 18:52:09 -0400", "71", "count/min",
                      "21:HKDevicePlacementSide=a & b", "35:HKMetadataKeyHeartRateMotionContext=0"].joined(separator: "\n"))
        #expect(Set(samples.map(\.uuid)) == [steps, heart])
        let withMetadata = try #require(samples.first { $0.type == .heartRate })
        #expect(withMetadata.metadata == ["HKMetadataKeyHeartRateMotionContext": "0", "HKDevicePlacementSide": "a & b"])
    }

    @Test func uuidsAreTheRFC9562Version8LayoutOfTheSHA1() {
        // SHA-1(namespace ‖ "x") leads with 0x…; the start's milliseconds replace its first 48 bits.
        let uuid = AppleHealthParser.uuid(startMicros: 1_557_874_329_000_000, content: "x")
        var input = AppleHealthParser.namespace
        input.append(UInt8(ascii: "x"))
        var digest = SHA1.digest(input)
        digest.removeLast(4)
        let millis: UInt64 = 1_557_874_329_000
        for index in 0..<6 { digest[index] = UInt8(truncatingIfNeeded: millis >> UInt64(40 - 8 * index)) }
        digest[6] = digest[6] & 0x0F | 0x80
        digest[8] = digest[8] & 0x3F | 0x80
        #expect(uuid == SampleUUID.format(digest))
    }

    @Test func eachChunkHoldsOneSourceInTheExportsOrder() {
        var body = ""
        for minute in 0..<6 {
            let stamp = "2019-05-14 10:0\(minute):00 +0000"
            let type = minute % 2 == 0 ? "HKQuantityTypeIdentifierStepCount" : "HKQuantityTypeIdentifierActiveEnergyBurned"
            body += Export.record(type, "\(minute)", unit: minute % 2 == 0 ? "count" : "kcal", source: "Phone", start: stamp, end: stamp)
            body += Export.record("HKQuantityTypeIdentifierStepCount", "\(minute)", source: "Watch", start: stamp, end: stamp)
        }
        let result = Export.parse(body, batchSize: 3)
        #expect(result.chunks.allSatisfy { $0.batch.sourceAppID != nil && $0.batch.samples.allSatisfy { $0.sourceAppID.isEmpty } })
        #expect(result.chunks.map(\.batch.samples.count) == [3, 3, 3, 3])
        #expect(result.chunks.first?.newSources.map(\.name) == ["Phone", "Watch"])
        let phone = result.chunks.filter { $0.batch.sourceAppID == AppleHealthSource.appID(for: "Phone") }
        #expect(phone.map { $0.batch.samples.map(\.type) } == [[.stepCount, .activeEnergyBurned, .stepCount], [.activeEnergyBurned, .stepCount, .activeEnergyBurned]])
        for chunk in result.chunks {
            for (earlier, later) in zip(chunk.batch.samples, chunk.batch.samples.dropFirst()) {
                #expect(earlier.startMicros < later.startMicros)
            }
        }
        #expect(result.counts.perSource == ["Phone": 6, "Watch": 6])
    }

    @Test func aSourceWhoseRecordsAreAllRefusedIsNotRegistered() {
        let result = Export.parse(
            Export.record("HKQuantityTypeIdentifierStepCount", "5", unit: "kg", source: "Broken Scale")
                + Export.record("HKQuantityTypeIdentifierStepCount", "6", source: "Phone"))
        #expect(result.chunks.flatMap(\.newSources).map(\.name) == ["Phone"])
        #expect(result.counts.invalid["HKQuantityTypeIdentifierStepCount"]?.count == 1)
    }

    @Test func anExportCutInsideATagIsAFailureNamingTheEnd() {
        var chunks: [AppleHealthChunk] = []
        let parser = AppleHealthParser(batchSize: 10) { chunks.append($0) }
        let text = Export.header + Export.record("HKQuantityTypeIdentifierStepCount", "5") + " <Record type=\"HKQuantityTypeIdentifierStepCount\" va"
        #expect(!parser.parse(Data(text.utf8)))
        #expect(parser.failure?.contains("</HealthData>") == true, "\(parser.failure ?? "")")
        #expect(Export.samples(chunks).count == 1)
    }

    @Test func anExportLargerThanOneReadIsReadWhole() {
        var body = ""
        let records = 3 * AppleHealthParser.readSize / 150
        for index in 0..<records {
            let seconds = index % 60, minutes = (index / 60) % 60, hours = index / 3_600
            let stamp = "2019-05-14 \(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds) +0000"
            body += Export.record("HKQuantityTypeIdentifierStepCount", "1", start: stamp, end: stamp)
        }
        let result = Export.parse(body, batchSize: 5_000)
        #expect(result.ok)
        #expect(result.counts.records == records)
        #expect(Export.samples(result.chunks).count == records)
    }
}
