import BrokerModel
import BrokerWire
import Foundation
import TestSupport
import Testing

/// A client that pipelines far more than the broker's output high-water mark while reading slowly:
/// the broker pauses mid-read (the frames after the pause stay in its decoder), resumes as the
/// client drains, and must answer every call, in order, with its own payload.
@Suite("Slow reader")
struct SlowReaderTests {
    @Test func everyPipelinedCallIsAnsweredInOrderAcrossPauses() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--output-high-water", "65536", "--stall-timeout-ms", "20000"])
        let credentials = try await daemon.registerApp("com.example.slow")
        let fd = try #require(RawUnixSocket.connect(daemon.appSocket))
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)

        // Hello, then 1,500 pings whose 1–3 KiB payloads say which call they belong to, in one stream:
        // the broker's reads hold many whole frames and cut others in two.
        let calls = 1_500
        var outgoing: [UInt8] = []
        WireCodec.append(ClientFrame.call(Call(callID: 1, request: .hello(
            HelloRequest(appID: "com.example.slow", appToken: credentials.token, protocolVersion: 1)))), to: &outgoing)
        func payload(_ id: Int) -> [UInt8] { [UInt8](repeating: UInt8(id % 251), count: 1_024 + (id * 37) % 2_048) }
        for id in 2...(calls + 1) {
            WireCodec.append(ClientFrame.call(Call(callID: UInt64(id), request: .ping(PingRequest(payload: payload(id))))), to: &outgoing)
        }

        var sent = 0
        var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var nextID: UInt64 = 1
        var mismatches: [String] = []
        let started = Date()
        while nextID <= UInt64(calls + 1), Date().timeIntervalSince(started) < 60 {
            if sent < outgoing.count {
                let count = outgoing.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if count > 0 { sent += count }
            }
            // Read nothing for the first half second (the broker's output fills and it pauses),
            // then a little at a time, so it pauses and resumes many times.
            if Date().timeIntervalSince(started) < 0.5 {
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0 {
                #expect(errno == EAGAIN || errno == EWOULDBLOCK, "recv failed: errno \(errno)")
                try await Task.sleep(for: .milliseconds(1))
                continue
            }
            buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while let frame = try decoder.nextFrame() {
                let reply = try WireCodec.decodeServerFrame(frame)
                if reply.callID != nextID { mismatches.append("expected call \(nextID), got \(reply.callID)") }
                if nextID > 1 {
                    guard case .ping(let ping)? = reply.response, ping.payload == payload(Int(reply.callID)) else {
                        mismatches.append("call \(reply.callID): not its own ping payload (\(String(describing: reply.status)))")
                        nextID = reply.callID + 1
                        continue
                    }
                }
                nextID = reply.callID + 1
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(nextID == UInt64(calls + 2), "answered up to call \(nextID - 1) of \(calls + 1)")
        #expect(sent == outgoing.count)
    }
}
