import BrokerCore
import CLibUV

extension PipeConnection {
    func startReading() {
        guard !isClosed, !isReading, !closeWhenFlushed else { return }
        let result = uv_read_start(stream, { handle, _, buffer in
            let connection = uvOwner(handle!.pointee.data, as: PipeConnection.self)
            let storage = connection.loop.readBuffer
            buffer!.pointee = uv_buf_init(storage.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(storage.count))
        }, { stream, count, buffer in
            let connection = uvOwner(stream!.pointee.data, as: PipeConnection.self)
            connection.didRead(count: count, base: buffer!.pointee.base)
        })
        if result < 0 {
            closeNow()
            return
        }
        isReading = true
    }

    func stopReading() {
        guard isReading else { return }
        uv_read_stop(stream)
        isReading = false
    }

    private func didRead(count: Int, base: UnsafeMutablePointer<CChar>?) {
        if count < 0 {
            // UV_EOF or a socket error: either way the peer is gone.
            closeNow()
            return
        }
        guard count > 0, let base else { return }
        let bytes = UnsafeRawBufferPointer(start: base, count: count)
        guard mayDeliver else {
            decoder.append(bytes)
            return
        }
        // Whole frames go to the delegate straight from the loop's read buffer; what is left (a
        // partial frame, or the frames after a pause or a close) is kept in the decoder.
        isReceiving = true
        do throws(BrokerError) {
            try decoder.receive(bytes) { payload in
                delegate?.connection(self, didReceiveFrame: payload.span)
                return mayDeliver
            }
            isReceiving = false
        } catch {
            isReceiving = false
            close(with: error)
        }
    }

    /// True while frames may go to the delegate: not closed, closing or paused for output.
    private var mayDeliver: Bool { !isClosed && !closeWhenFlushed && !isPausedForOutput }

    /// Hands every complete buffered frame to the delegate, until paused or closed.
    func deliverBufferedFrames() {
        guard !isReceiving else { return }
        do throws(BrokerError) {
            while mayDeliver, let payload = try decoder.nextFrame() {
                delegate?.connection(self, didReceiveFrame: payload.span)
            }
        } catch {
            close(with: error)
        }
    }

    /// Stops reading because too much output is queued for a peer that does not take it.
    func pauseForOutput() {
        guard !isPausedForOutput else { return }
        isPausedForOutput = true
        stallEpisode &+= 1
        stopReading()
        // A peer that stops reading for too long is cut off; its memory here stays bounded meanwhile.
        let episode = stallEpisode
        loop.schedule(afterMicros: outputLimits.stallTimeoutMicros) { [weak self] in
            guard let self, self.isPausedForOutput, self.stallEpisode == episode, !self.isClosed else { return }
            self.closingError = BrokerError(code: .resourceExhausted, message: "the peer stopped reading replies")
            self.closeNow()
        }
    }

    /// Reads again once queued output has drained below the low-water mark.
    func resumeIfDrained() {
        guard isPausedForOutput, queuedOutputBytes <= outputLimits.lowWater, !isClosed, !closeWhenFlushed else { return }
        isPausedForOutput = false
        deliverBufferedFrames()
        if !isPausedForOutput { startReading() }
    }
}
