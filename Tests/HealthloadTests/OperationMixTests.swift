@testable import healthload
import Testing

/// `--op` parsing and how a mix spreads its operations.
@Suite("Operation mix")
struct OperationMixTests {
    @Test func aSingleOperationHasWeightOne() throws {
        let mix = try OperationMix(parsing: "ping")
        #expect(mix.entries == [OperationMix.Entry(operation: .ping, weight: 1)])
        #expect(mix.cycle() == [.ping])
    }

    @Test func aWeightedMixKeepsTheGivenOrderAndWeights() throws {
        let mix = try OperationMix(parsing: "ping:8,easd:1, status:1 ,query:1,SAVE:1")
        #expect(mix.operations == [.ping, .easd, .status, .query, .save])
        #expect(mix.totalWeight == 12)
        #expect(mix.description == "ping:8,easd:1,status:1,query:1,save:1")
        #expect(abs(mix.share(of: .ping) - 8.0 / 12) < 1e-12)
        let cycle = mix.cycle()
        #expect(cycle.count == 12)
        for entry in mix.entries {
            #expect(cycle.filter { $0 == entry.operation }.count == entry.weight)
        }
    }

    @Test func theCycleSpreadsOperationsEvenly() throws {
        #expect(try OperationMix(parsing: "ping:2,save:1").cycle() == [.ping, .save, .ping])
        let cycle = try OperationMix(parsing: "ping:1,easd:1").cycle()
        #expect(Set(cycle) == [.ping, .easd])
        // No run of one operation longer than its fair share would allow.
        let heavy = try OperationMix(parsing: "ping:3,save:1").cycle()
        #expect(heavy.count == 4)
        #expect(heavy.filter { $0 == .save }.count == 1)
    }

    @Test(arguments: [
        ("", "empty operation"),
        ("ping,", "empty operation"),
        ("pong", "unknown operation 'pong'"),
        ("ping:0", "weight of 'ping'"),
        ("ping:-2", "weight of 'ping'"),
        ("ping:x", "weight of 'ping'"),
        ("ping:1:2", "is not NAME or NAME:WEIGHT"),
        ("ping,ping:2", "appears twice"),
        ("ping:60000,save:60000", "add up to more than"),
    ])
    func badMixesAreRefusedWithAReason(text: String, reason: String) {
        #expect {
            _ = try OperationMix(parsing: text)
        } throws: { error in
            (error as? OperationMixError)?.description.contains(reason) == true
        }
    }
}
