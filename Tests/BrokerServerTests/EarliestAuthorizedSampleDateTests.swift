@testable import BrokerServer
import BrokerModel
import BrokerWire
import Testing

/// EarliestAuthorizedSampleDate in process: an identifier the catalogue spells otherwise (the slow
/// path, types made as `ObjectType`) answers exactly what the catalogued spelling answers.
@Suite("EarliestAuthorizedSampleDate, in process")
struct EarliestAuthorizedSampleDateTests {
    @Test func anOddSpellingAnswersAsTheCataloguedSpelling() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.kelvin")
        let admin = harness.connect(.admin)
        defer { admin.disconnect() }
        let from: Int64 = 1_780_000_000_000_000
        for (id, type) in [(UInt64(2), ObjectType.stepCount), (3, .heartRate)] {
            let set = try harness.call(
                .adminSetGrant(appID: "com.example.kelvin", decision: TypeDecision(type: type, read: .limited(fromMicros: from))),
                id: id, on: admin)
            #expect(set.first?.status == nil, "\(set)")
        }
        func ask(_ identifiers: [String], id: UInt64) throws -> [Proto.TypeDate]? {
            let frames = try harness.call(.earliestAuthorizedSampleDate(.with { $0.types = identifiers }), id: id, on: app)
            guard frames.count == 1, frames[0].status == nil, case .earliestAuthorizedSampleDate(let reply) = frames[0].response else {
                Issue.record("not an EASD reply: \(frames)")
                return nil
            }
            return reply.dates
        }
        let steps = ObjectType.stepCount.identifier
        let kelvin = "H\u{212A}" + steps.dropFirst(2)
        #expect(Array(kelvin.utf8) != Array(steps.utf8))
        let catalogued = try ask([steps, ObjectType.heartRate.identifier], id: 10)
        let odd = try ask([kelvin, ObjectType.heartRate.identifier], id: 11)
        #expect(catalogued?.count == 2)
        #expect(catalogued?.allSatisfy { $0.dateMicros == from } == true, "\(String(describing: catalogued))")
        #expect(odd == catalogued)
    }
}
