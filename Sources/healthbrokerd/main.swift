import BrokerServer
import CommandLineSupport

CommandLineTool.run(spec: DaemonCommand.spec) { command in
    var configuration = try DaemonCommand.configuration(from: command)
    try DaemonCommand.attachServiceManager(to: &configuration)
    let broker = try Broker(configuration: configuration)
    try broker.run()
}
