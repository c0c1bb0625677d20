// healthctl: the HealthBroker admin CLI. Parses the command line, runs one command over the admin
// socket, and reports broker failures as `healthctl: MESSAGE` with exit status 1 (usage errors: 64).
import CommandLineSupport

#if canImport(Glibc)
import Glibc
#endif

await CommandLineTool.run(spec: HealthctlSpec.spec) { command in
    do {
        try await HealthctlCommand.run(command)
    } catch let failure as CommandFailure {
        Console.error(failure.report(program: HealthctlSpec.programName))
        exit(CommandLineTool.failureExitCode)
    }
}
