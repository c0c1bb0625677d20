import HealthBrokerClient

extension LoadReport {
    /// The report of a finished run: `tally` over `measuredSeconds`, with the broker and driver CPU
    /// and the broker's write counters taken as the difference between probes `first` and `last`.
    init(options: LoadOptions, tally: StatsTally, measuredSeconds: Double, stoppedEarly: Bool,
         first: BrokerProbe, last: BrokerProbe, pid: Int32?, pidSource: String?) {
        configuration = Configuration(
            socket: options.socketPath, connections: options.connections, depth: options.effectiveDepth,
            threads: options.effectiveThreads, mode: options.rate == nil ? "closed" : "open", rate: options.rate,
            mix: options.mix.description, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds,
            payloadBytes: options.payloadBytes, querySamples: options.querySamples, batch: options.saveBatch,
            apps: options.apps, verify: options.verify)
        self.measuredSeconds = measuredSeconds
        self.stoppedEarly = stoppedEarly
        let total = tally.total
        started = total.started
        completed = total.completed
        succeeded = total.succeeded
        failed = total.failed
        unsent = tally.unsent
        strayReplies = tally.strayReplies
        callsPerSecond = measuredSeconds > 0 ? Double(total.completed) / measuredSeconds : 0
        succeededPerSecond = measuredSeconds > 0 ? Double(total.succeeded) / measuredSeconds : 0
        latency = LatencySummary(total.latency)
        percentiles = total.latency.percentileTable()
        errors = Dictionary(uniqueKeysWithValues: total.errors.map { (CallOutcome.name($0.key), $0.value) })
        bytesSent = total.bytesSent
        bytesReceived = total.bytesReceived
        bytesPerSecond = measuredSeconds > 0 ? Double(total.bytesSent + total.bytesReceived) / measuredSeconds : 0
        operations = options.mix.operations.map { operation in
            OperationReport(operation: operation, tally: tally.operations[operation.index], seconds: measuredSeconds)
        }

        let calls = Double(total.completed)
        broker = Broker(pid: pid, pidSource: pidSource, version: last.info?.brokerVersion ?? first.info?.brokerVersion)
        if let before = first.brokerCPU, let after = last.brokerCPU {
            let seconds = max(0, after.seconds - before.seconds)
            broker.cpuSeconds = seconds
            broker.cpuMicrosPerCall = calls > 0 ? seconds * 1e6 / calls : nil
        }
        if let before = first.info, let after = last.info, after.framesSent >= before.framesSent, after.writeCalls >= before.writeCalls {
            let frames = after.framesSent - before.framesSent
            let writes = after.writeCalls - before.writeCalls
            broker.framesSent = frames
            broker.writeCalls = writes
            broker.framesPerWrite = writes > 0 ? Double(frames) / Double(writes) : nil
        }
        client = Client()
        if let before = first.clientCPU, let after = last.clientCPU {
            let seconds = max(0, after.seconds - before.seconds)
            client.cpuSeconds = seconds
            client.cpuMicrosPerCall = calls > 0 ? seconds * 1e6 / calls : nil
        }
    }
}
