@testable import BrokerTransport
import Testing

/// A `uv_write` that fails at once reports it by throwing, never through the completion.
@Suite struct WriteRequestTests {
    @Test func aWriteThatFailsAtOnceThrowsWithoutCallingBack() throws {
        let loop = try EventLoop()
        // Never accepted: the pipe has no file descriptor, so `uv_write` fails with EBADF at once.
        let connection = try #require(PipeConnection(loop: loop, id: 1, maxFrameBytes: 1_024, outputLimits: OutputLimits(highWater: 1_024)))
        var calledBack = false
        let bytes: [UInt8] = [0, 0, 0, 0, 1, 42]
        let started = bytes.withUnsafeBytes { raw in
            Result { () throws(UVError) in
                try WriteRequest(stream: connection.stream, copying: raw) { _ in calledBack = true }
            }
        }
        guard case .failure(let error) = started else {
            Issue.record("uv_write on a pipe without a descriptor started")
            return
        }
        #expect(error.operation == "uv_write")
        #expect(!calledBack)
        connection.close()
        loop.close()
        loop.run()
        #expect(!calledBack)
        #expect(loop.closedCleanly)
    }
}
