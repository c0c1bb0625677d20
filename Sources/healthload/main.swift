// healthload: drives a running HealthBroker with calls over its real sockets and reports throughput,
// latency percentiles, errors, bytes and the broker's CPU time per call. See `healthload --help`.
import BrokerSupport
import CommandLineSupport

await CommandLineTool.run(spec: LoadSpec.spec) { command in
    let options = try LoadOptions(command)
    FileDescriptorLimit.raiseToHardLimit()
    Interrupt.install()
    let runner = LoadRunner(options: options, stop: Interrupt.flag, log: { Console.note($0) })
    let report = try await runner.run()
    print(ReportText.summary(report))
    if let path = options.jsonPath { try ReportFiles.writeJSON(report, to: path) }
    if let path = options.svgPath { try ReportFiles.writeSVG(report, to: path) }
}
