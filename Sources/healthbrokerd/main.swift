import BrokerServer
import CommandLineSupport

CommandLineTool.run(spec: DaemonCommand.spec) { command in
    let broker = try Broker(configuration: try DaemonCommand.configuration(from: command))
    try broker.run()
}
