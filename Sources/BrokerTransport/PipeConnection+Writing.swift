import CLibUV

extension PipeConnection {
    /// Hands the turn's gathered output to the kernel: one `uv_try_write`, and a queued write for the rest.
    func flush() {
        loop.assertInLoop()
        isDirty = false
        guard !isClosed else { return }
        if writeInFlight == nil, !pendingOutput.isEmpty {
            loop.writeCalls &+= 1
            let written = pendingOutput.withUnsafeMutableBytes { bytes -> Int in
                var buffer = uv_buf_init(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
                return Int(uv_try_write(stream, &buffer, 1))
            }
            if written == pendingOutput.count {
                pendingOutput.removeAll(keepingCapacity: true)
            } else if written < 0, written != Int(UV_EAGAIN.rawValue) {
                closeNow()
                return
            } else {
                let start = max(written, 0)
                loop.writeCalls &+= 1
                // A `uv_write` that fails at once throws rather than calling back: the failure is
                // handled below, once the borrow of `pendingOutput` has ended (closing replaces it).
                let started = pendingOutput.withUnsafeBytes { bytes in
                    Result { () throws(UVError) in
                        try WriteRequest(stream: stream, copying: UnsafeRawBufferPointer(rebasing: bytes[start...])) { [unowned self] status in
                            self.writeDidFinish(status: status)
                        }
                    }
                }
                pendingOutput.removeAll(keepingCapacity: true)
                switch started {
                case .success(let request):
                    writeInFlight = request
                case .failure:
                    // As for a write that fails later (`writeDidFinish`): the peer is gone.
                    closeNow()
                    return
                }
            }
        }
        afterOutputChange()
    }

    private func writeDidFinish(status: Int32) {
        writeInFlight = nil
        guard !isClosed else { return }
        if status < 0 {
            closeNow()
            return
        }
        if !pendingOutput.isEmpty {
            flush()
        } else {
            afterOutputChange()
        }
    }

    private func afterOutputChange() {
        if closeWhenFlushed {
            if queuedOutputBytes == 0 { closeNow() }
            return
        }
        if queuedOutputBytes >= outputLimits.highWater { outputBecameFull() }
        if isOverReadingBudget { pauseForOutput() }
        // Runs parked producers while the output has room, and reads again when it may.
        resumeIfDrained()
    }
}
