import BrokerWire
import Testing
@testable import HealthBrokerClient

@Suite("CreditWindow")
struct CreditWindowTests {
    @Test func zeroWindowMeansTheDefault() {
        #expect(CreditWindow(window: 0).window == Call.defaultStreamCredit)
        #expect(CreditWindow(window: 0).allowance == UInt64(Call.defaultStreamCredit))
    }

    @Test func grantsHalfTheWindowOnceHalfIsTaken() {
        var credit = CreditWindow(window: 8)
        for _ in 0..<8 {
            let accepted = credit.receive()
            #expect(accepted)
        }
        let ninth = credit.receive()
        #expect(!ninth, "a ninth item before any grant breaks the window")
        #expect(credit.take() == 0)
        #expect(credit.take() == 0)
        #expect(credit.take() == 0)
        #expect(credit.take() == 4)
        #expect(credit.allowance == 4)
        #expect(credit.takenSinceGrant == 0)
    }

    @Test func windowOfOneGrantsEveryItem() {
        var credit = CreditWindow(window: 1)
        #expect(credit.grantThreshold == 1)
        for _ in 0..<5 {
            let first = credit.receive()
            let second = credit.receive()
            #expect(first)
            #expect(!second)
            #expect(credit.take() == 1)
        }
    }

    @Test func oddWindowRoundsTheThresholdDown() {
        var credit = CreditWindow(window: 5)
        #expect(credit.grantThreshold == 2)
        #expect(credit.take() == 0)
        #expect(credit.take() == 2)
    }

    @Test func bufferedItemsNeverExceedTheWindow() {
        // A broker that always sends as much as allowed, against a consumer that takes one at a time.
        for window: UInt32 in [1, 2, 3, 7, 64] {
            var credit = CreditWindow(window: window)
            var buffered = 0
            for _ in 0..<1_000 {
                while credit.receive() { buffered += 1 }
                #expect(buffered <= Int(credit.window))
                buffered -= 1
                _ = credit.take()
            }
        }
    }
}
