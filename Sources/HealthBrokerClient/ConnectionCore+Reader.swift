#if canImport(Glibc)
import Glibc
#endif
import BrokerCore
import BrokerWire

extension ConnectionCore {
    /// The reader thread's body: wait for bytes or the next deadline, decode every whole frame, route
    /// replies to their calls; on EOF, a read error, a bad frame or a connection-level error (call id
    /// 0) fail everything pending and stop.
    ///
    /// All state here (decoder, scratch buffers) is confined to this thread. Frames of one read are
    /// applied under one lock acquisition and their waiters resumed after unlocking.
    func runReader() {
        var decoder = FrameDecoder(maxFrameBytes: Self.maxIncomingFrameBytes)
        var scratch = [UInt8](repeating: 0, count: Self.readChunkBytes)
        var frames: [ServerFrame] = []
        var deliveries: [CallTable<CallWaiter>.Delivery] = []
        var pollSet = [
            pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0),
        ]
        var endReason = "the broker closed the connection"

        while true {
            let now = Microseconds.monotonic()
            let timeout: Int32? = table.withLock { table in
                guard table.closedError == nil else { return nil }
                table.expire(now: now, into: &deliveries)
                return Self.pollTimeout(until: table.wakeAt, now: now)
            }
            deliver(&deliveries)
            guard let timeout else { return }  // closed by the client: it already shut the socket down

            pollSet[0].revents = 0
            pollSet[1].revents = 0
            let ready = poll(&pollSet, 2, timeout)
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                endReason = "poll failed: \(UnixSocket.errorName(code))"
                break
            }
            if pollSet[1].revents != 0 {
                var drain: (UInt64, UInt64) = (0, 0)
                _ = withUnsafeMutableBytes(of: &drain) { read(wakeReadFD, $0.baseAddress, $0.count) }
            }
            guard pollSet[0].revents != 0 else { continue }

            let count = scratch.withUnsafeMutableBytes { read(socketFD, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN { continue }
                endReason = code == ECONNRESET ? endReason : "read failed: \(UnixSocket.errorName(code))"
                break
            }
            scratch.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }

            var badFrame: BrokerError?
            do {
                while let payload = try decoder.nextFrame() {
                    frames.append(try WireCodec.decodeServerFrame(payload))
                }
            } catch {
                badFrame = .malformedReply(error)
            }
            // `closedWith`: the error later calls get, when this closed the table.
            let (stop, closedWith): (Bool, BrokerError?) = table.withLock { table in
                for frame in frames {
                    if frame.callID == 0 {
                        let error = frame.status?.error ?? .connectionClosed(socketPath, "the broker closed the connection")
                        // Later calls learn why, with the broker's own status (e.g. RESOURCE_EXHAUSTED for
                        // a connection refused at the limit, UNAUTHENTICATED for a removed app).
                        let later = frame.status?.error.map {
                            BrokerError(code: $0.code, domain: $0.domain, message: "the broker closed the connection at \(socketPath): \($0.message)")
                        } ?? BrokerError.connectionClosed(socketPath, "the broker closed the connection")
                        let closedNow = table.close(failingPendingWith: error, laterCallsWith: later, into: &deliveries)
                        return (true, closedNow ? later : nil)
                    }
                    if let delivery = table.receive(frame) { deliveries.append(delivery) }
                }
                if let badFrame {
                    let later = BrokerError.connectionClosed(socketPath, badFrame.message)
                    let closedNow = table.close(failingPendingWith: badFrame, laterCallsWith: later, into: &deliveries)
                    return (true, closedNow ? later : nil)
                }
                return (false, nil)
            }
            frames.removeAll(keepingCapacity: true)
            deliver(&deliveries)
            if stop {
                _ = shutdown(socketFD, Int32(SHUT_RDWR))
                if let closedWith { announceClosed(closedWith) }
                return
            }
        }
        let error = BrokerError.connectionClosed(socketPath, endReason)
        shutDown(failingPendingWith: error, laterCallsWith: error)
    }

    /// Resumes and empties `deliveries` (outside every lock).
    private func deliver(_ deliveries: inout [CallTable<CallWaiter>.Delivery]) {
        guard !deliveries.isEmpty else { return }
        for delivery in deliveries { delivery.waiter.deliver(delivery.event) }
        deliveries.removeAll(keepingCapacity: true)
    }

    /// `poll(2)`'s timeout in milliseconds until `wakeAt` (rounded up), or -1 for none.
    static func pollTimeout(until wakeAt: Int64?, now: Int64) -> Int32 {
        guard let wakeAt else { return -1 }
        let remaining = wakeAt - now
        guard remaining > 0 else { return 0 }
        return Int32(clamping: remaining / 1_000 + (remaining % 1_000 == 0 ? 0 : 1))
    }
}
