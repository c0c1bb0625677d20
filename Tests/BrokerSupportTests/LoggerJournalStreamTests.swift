import BrokerSupport
import Testing

/// `JOURNAL_STREAM` is `DEVICE:INODE` of the journal's stream; only an exact match counts.
@Suite struct LoggerJournalStreamTests {
    @Test func matchesTheSameDeviceAndInode() {
        #expect(Logger.isJournalStream("64769:1234567", device: 64_769, inode: 1_234_567))
    }

    @Test(arguments: ["64769:1234568", "64768:1234567", "64769", "64769:1234567:1", "", ":", "a:b", "64769:-1"])
    func anythingElseDoesNot(value: String) {
        #expect(!Logger.isJournalStream(value, device: 64_769, inode: 1_234_567))
    }
}
