import BrokerWire

extension LoadConnection {
    /// Handles every whole frame in the input buffer; calls that end are stamped `now`.
    ///
    /// A malformed frame, or a connection-level error (call id 0), closes the connection and fails
    /// every call in flight. A reply for no call in flight is counted and ignored.
    func consumeFrames(now: UInt64, tally: inout StatsTally) {
        while isOpen && inputEnd - inputStart >= 5 {
            let flags = input[inputStart]
            let length = Int(input[inputStart + 1]) << 24 | Int(input[inputStart + 2]) << 16
                | Int(input[inputStart + 3]) << 8 | Int(input[inputStart + 4])
            guard flags == 0 else {
                closeFailing("a reply frame had flags \(flags)", code: CallOutcome.malformedReply, tally: &tally)
                return
            }
            guard inputEnd - inputStart - 5 >= length else { return }
            let bodyStart = inputStart + 5
            let bodyEnd = bodyStart + length
            let summary = input.withUnsafeBytes { ReplySummary.scan(UnsafeRawBufferPointer(rebasing: $0[bodyStart..<bodyEnd])) }
            guard let summary else {
                inputStart = bodyEnd
                closeFailing("a reply frame did not decode", code: CallOutcome.malformedReply, tally: &tally)
                return
            }
            if summary.callID == 0 {
                inputStart = bodyEnd
                let name = CallOutcome.name(summary.code)
                closeFailing("the broker ended the connection with \(name)", code: summary.code, tally: &tally)
                return
            }
            guard let slot = slots.slot(forCallID: summary.callID) else {
                inputStart = bodyEnd
                tally.strayReplies += 1
                continue
            }
            var code = summary.code
            if let verifier {
                code = verify(verifier, summary: summary, slot: slot, frame: input[bodyStart..<bodyEnd])
            }
            inputStart = bodyEnd
            let operation = Int(slots.operations[slot])
            let measured = slots.measured[slot]
            if measured { tally.operations[operation].bytesReceived &+= UInt64(5 + length) }
            if !summary.endsCall {
                slots.items[slot] &+= 1
                if measured { tally.operations[operation].streamItems &+= 1 }
                continue
            }
            tally.endedAnyPhase &+= 1
            if code == 0 {
                if measured {
                    let start = slots.startTimes[slot]
                    tally.operations[operation].succeeded &+= 1
                    tally.operations[operation].latency.record(now > start ? now - start : 0)
                }
            } else {
                tally.failedAnyPhase &+= 1
                if measured { tally.operations[operation].recordFailure(code) }
            }
            slots.close(slot)
        }
        if inputStart == inputEnd {
            inputStart = 0
            inputEnd = 0
        }
    }

    /// `--verify`: decodes the frame in full; returns the call's outcome code (unchanged when the
    /// reply is right, `unexpectedReply` when an OK reply holds the wrong thing).
    private func verify(_ verifier: ReplyVerifier, summary: ReplySummary, slot: Int, frame: ArraySlice<UInt8>) -> Int32 {
        guard let decoded = Proto.ServerFrame.decode(frame) else { return CallOutcome.malformedReply }
        let operation = LoadOperation.allCases[Int(slots.operations[slot])]
        if !summary.endsCall {
            if let count = verifier.samples(inItem: decoded, operation: operation) {
                slots.samples[slot] += count
            } else {
                slots.samples[slot] = Int.min / 2
            }
            return 0
        }
        guard summary.code == 0 else { return summary.code }
        return verifier.isValidEnd(decoded, operation: operation, streamedSamples: slots.samples[slot]) ? 0 : CallOutcome.unexpectedReply
    }

    /// Closes the connection for `reason` and fails its calls in flight with `code`.
    func closeFailing(_ reason: String, code: Int32, tally: inout StatsTally) {
        markClosed(reason)
        failInFlight(code, tally: &tally)
    }
}
