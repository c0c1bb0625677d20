import BrokerServer
import CommandLineSupport

CommandLineTool.run(spec: DaemonCommand.spec) { command in
    if let file = command.string("restore") {
        try DaemonCommand.restore(file, command: command)
        return
    }
    var configuration = try DaemonCommand.configuration(from: command)
    try DaemonCommand.attachServiceManager(to: &configuration)
    let broker = try Broker(configuration: configuration)
    try broker.run()
}
