@testable import BrokerModel
@testable import BrokerPolicy
import Testing

/// The version 2 layout with a toy, reversible "seal" (the real cipher is tested in BrokerStoreTests' AnchorCodec suite).
@Suite("SyncAnchor sealed")
struct SyncAnchorSealedTests {
    let app = "com.example.sync"

    /// Toy seal: plaintext then associated data, so a test can see both.
    func toySeal(_ plaintext: [UInt8], _ associatedData: [UInt8]) -> [UInt8] { plaintext + associatedData }

    /// Opens `toySeal` output when its tail is exactly `associatedData`.
    func toyOpen(_ sealed: [UInt8], _ associatedData: [UInt8]) -> [UInt8]? {
        guard sealed.count >= associatedData.count, Array(sealed.suffix(associatedData.count)) == associatedData else { return nil }
        return Array(sealed.dropLast(associatedData.count))
    }

    @Test(arguments: [Int64(0), 1, 0x0102_0304_0506_0708, .max, .min])
    func roundTrip(_ position: Int64) throws {
        let anchor = SyncAnchor.seal(position: position, appID: app, type: .stepCount, seal: toySeal)
        #expect(anchor.first == 2)
        #expect(try SyncAnchor.open(anchor, appID: app, type: .stepCount, open: toyOpen) == position)
    }

    @Test func layout() {
        let anchor = SyncAnchor.seal(position: 0x0102_0304_0506_0708, appID: app, type: .stepCount, seal: toySeal)
        #expect(Array(anchor.prefix(9)) == [2, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Array(anchor.dropFirst(9)) == SyncAnchor.macInput(header: [2], appID: app, type: .stepCount))
    }

    @Test func refusals() {
        let anchor = SyncAnchor.seal(position: 5, appID: app, type: .stepCount, seal: toySeal)
        let invalid = BrokerError.invalidArgument("invalid anchor")
        #expect(thrownError { _ = try SyncAnchor.open([], appID: app, type: .stepCount, open: toyOpen) } == invalid)
        #expect(thrownError { _ = try SyncAnchor.open([1] + anchor.dropFirst(), appID: app, type: .stepCount, open: toyOpen) } == invalid)
        #expect(thrownError { _ = try SyncAnchor.open(anchor, appID: "other", type: .stepCount, open: toyOpen) } == invalid)
        #expect(thrownError { _ = try SyncAnchor.open(anchor, appID: app, type: .heartRate, open: toyOpen) } == invalid)
        // A plaintext that is not 8 bytes is refused even when `open` accepts it.
        var short = anchor
        short.remove(at: 1)
        #expect(thrownError { _ = try SyncAnchor.open(short, appID: app, type: .stepCount, open: toyOpen) } == invalid)
    }
}
