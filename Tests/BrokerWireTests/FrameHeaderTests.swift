import Testing
@testable import BrokerWire

@Suite("FrameHeader")
struct FrameHeaderTests {
    @Test func writesZeroFlagsAndABigEndianLength() {
        var buffer: [UInt8] = []
        FrameHeader.append(length: 0x0102_0304, to: &buffer)
        #expect(buffer == [0, 1, 2, 3, 4])
    }

    @Test func appendsAfterExistingBytes() {
        var buffer: [UInt8] = [0xAA, 0xBB]
        FrameHeader.append(length: 0, to: &buffer)
        FrameHeader.append(length: Int(UInt32.max), to: &buffer)
        FrameHeader.append(length: 300, to: &buffer)
        #expect(buffer == [0xAA, 0xBB, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1, 44])
    }

    @Test func headerSizeIsFiveBytes() {
        #expect(FrameDecoder.headerSize == 5)
    }
}
