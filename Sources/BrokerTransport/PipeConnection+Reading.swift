import BrokerModel
import BrokerSupport
import BrokerWire
import CLibUV

extension PipeConnection {
    func startReading() {
        loop.assertInLoop()
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
                framesReceived &+= 1
                frameReceiver?(self, payload.span)
                return mayDeliver
            }
            isReceiving = false
        } catch {
            isReceiving = false
            closeForUndecodableFrame(error)
            return
        }
        notePartialFrame()
    }

    /// True while frames may go to the delegate: not closed, closing or paused for output.
    private var mayDeliver: Bool { !isClosed && !closeWhenFlushed && !isPausedForOutput }

    /// Hands every complete buffered frame to the delegate, until paused or closed.
    func deliverBufferedFrames() {
        guard !isReceiving else { return }
        do throws(BrokerError) {
            while mayDeliver, let payload = try decoder.nextFrame() {
                framesReceived &+= 1
                frameReceiver?(self, payload.span)
            }
        } catch {
            closeForUndecodableFrame(error)
            return
        }
        notePartialFrame()
    }

    /// Ends the connection over bytes that are not a frame: with a call-id-0 status, or, for a peer
    /// that opened with HTTP/2's preface (a gRPC client), a line of text it can show, as our frames
    /// mean nothing to it.
    private func closeForUndecodableFrame(_ error: BrokerError) {
        if decoder.startsWithHTTP2Preface {
            close(with: error, plainText: "healthbrokerd: \(error.message)\n")
        } else {
            close(with: error)
        }
    }

    // MARK: Frame deadline

    /// Starts or stops the frame deadline after frames were taken from the decoder.
    ///
    /// While frames are delivered, bytes left in the decoder are a frame that started to arrive;
    /// its deadline counts from the read that left it (a frame that completed since starts afresh).
    /// While paused, the broker is not reading, so no deadline runs.
    private func notePartialFrame() {
        guard frameTimeoutMicros > 0 else { return }
        guard mayDeliver, decoder.bufferedByteCount > 0 else {
            partialFrameStart = nil
            return
        }
        if let start = partialFrameStart, start.frames == framesReceived { return }
        partialFrameStart = (Microseconds.monotonic(), framesReceived)
        if frameTimer == nil { armFrameTimer(afterMicros: frameTimeoutMicros) }
    }

    private func armFrameTimer(afterMicros micros: Int64) {
        frameTimer = loop.schedule(afterMicros: micros) { [weak self] in
            guard let self else { return }
            self.frameTimer = nil
            guard !self.isClosed, !self.closeWhenFlushed, let start = self.partialFrameStart else { return }
            let left = start.micros + self.frameTimeoutMicros - Microseconds.monotonic()
            guard left <= 0 else {
                self.armFrameTimer(afterMicros: left)
                return
            }
            let millis = self.frameTimeoutMicros / 1_000
            self.close(with: BrokerError(
                code: .deadlineExceeded, domain: .protocolError,
                message: "a frame did not arrive whole within \(millis) ms of its first byte"))
        }
    }

    // MARK: Output pressure

    /// Stops reading because queued output and held bytes together reached the high-water mark.
    func pauseForOutput() {
        guard !isPausedForOutput else { return }
        isPausedForOutput = true
        partialFrameStart = nil
        stopReading()
    }

    /// Marks the output full: producers park from now until it drains to the low-water mark, and a
    /// peer that takes nothing for the stall timeout is cut off.
    func outputBecameFull() {
        guard !isOutputFull else { return }
        isOutputFull = true
        stallEpisode &+= 1
        // A peer that stops reading for too long is cut off; its memory here stays bounded meanwhile.
        let episode = stallEpisode
        loop.schedule(afterMicros: outputLimits.stallTimeoutMicros) { [weak self] in
            guard let self, self.isOutputFull, self.stallEpisode == episode, !self.isClosed else { return }
            self.cutOffStalledPeer()
        }
    }

    /// Ends a connection whose peer read nothing for the stall timeout, with a final status when possible.
    ///
    /// Frames not yet handed to the kernel are dropped and a call-id-0 RESOURCE_EXHAUSTED status
    /// takes their place, behind the write already under way (which ends on a frame boundary): a
    /// peer that starts reading again sees whole frames, then the status, then the end. One that
    /// still reads nothing is closed `stalledPeerGraceMicros` later: long enough for a peer that was
    /// only slow (a busy machine) to drain the write under way and read why; its memory here stays
    /// what it was meanwhile (nothing more is queued).
    func cutOffStalledPeer() {
        let error = BrokerError(code: .resourceExhausted, message: "the peer stopped reading replies")
        // Told now: the close (and its log line) may come up to the grace period later.
        delegate?.connection(self, cutsOffStalledPeerWith: error)
        if closeWhenFlushed {
            closingError = closingError ?? error
            closeNow()
            return
        }
        closingError = error
        pendingOutput.removeAll()
        closeAfterSending(ServerFrame(callID: 0, status: Status(error)), graceMicros: Self.stalledPeerGraceMicros)
    }

    /// How long a cut-off peer has to take the rest of the write under way and its final status (5 s).
    static let stalledPeerGraceMicros: Int64 = 5_000_000

    /// Runs parked producers while there is room, then reads again once queued output has drained
    /// below the low-water mark and held bytes leave room under the high-water mark.
    func resumeIfDrained() {
        guard !isClosed, !closeWhenFlushed else { return }
        if isOutputFull, queuedOutputBytes <= outputLimits.lowWater { isOutputFull = false }
        runParkedProducers()
        guard isPausedForOutput, !isOutputFull, queuedOutputBytes <= outputLimits.lowWater, !isOverReadingBudget else { return }
        isPausedForOutput = false
        deliverBufferedFrames()
        if !isPausedForOutput { startReading() }
    }

    /// Runs parked producers in order while the output has room; each queues at most one frame or
    /// parks again (at the back), so the queue passes the mark by at most one frame.
    private func runParkedProducers() {
        while !isOutputFull, !isClosed, !closeWhenFlushed, parkedHead < parkedProducers.count {
            let producer = parkedProducers[parkedHead]
            parkedProducers[parkedHead] = nil
            parkedHead += 1
            producer?()
        }
        if parkedHead == parkedProducers.count {
            parkedProducers.removeAll(keepingCapacity: parkedProducers.count <= 1_024)
            parkedHead = 0
        } else if parkedHead >= 1_024, parkedHead * 2 >= parkedProducers.count {
            parkedProducers.removeSubrange(0..<parkedHead)
            parkedHead = 0
        }
    }

    /// Forgets every parked producer (the connection is closing).
    func dropParkedProducers() {
        parkedProducers = []
        parkedHead = 0
    }
}
