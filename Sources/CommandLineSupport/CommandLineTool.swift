#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `main` of an executable: parse, print help or a usage error, run the body, exit.
///
/// ```swift
/// CommandLineTool.run(spec: healthctlSpec) { command in
///     let socket = command.string("socket")!
///     ...
/// }
/// ```
///
/// `--help` prints help to standard output and exits 0. An `ArgumentError` from parsing or from the
/// body prints `error: MESSAGE (see 'CMD --help')` to standard error and exits 64 (`EX_USAGE`); any
/// other error from the body prints `error: ERROR` and exits 1. A body that returns exits 0.
public enum CommandLineTool {
    /// The exit status for a command line the tool cannot accept: 64, `EX_USAGE` from `sysexits.h`.
    public static let usageExitCode: Int32 = 64
    /// The exit status when the body throws something other than an `ArgumentError`.
    public static let failureExitCode: Int32 = 1

    /// Parses `arguments` against `spec`, then runs `body` with the result, and exits.
    ///
    /// A `nil` `environment` reads the variables the spec's options name from this process.
    public static func run(
        spec: CommandSpec,
        arguments: some Sequence<String> = CommandLine.arguments.dropFirst(),
        environment: [String: String]? = nil,
        body: (ParsedCommand) throws -> Void
    ) -> Never {
        let command: ParsedCommand
        switch prepare(spec: spec, arguments: arguments, environment: environment) {
        case .exit(let ending): finish(ending)
        case .run(let parsed): command = parsed
        }
        do {
            try body(command)
            finish(Ending(code: 0))
        } catch {
            finish(ending(for: error))
        }
    }

    /// Parses `arguments` against `spec`, then runs the asynchronous `body` with the result, and exits.
    ///
    /// A `nil` `environment` reads the variables the spec's options name from this process.
    public static func run(
        spec: CommandSpec,
        arguments: some Sequence<String> = CommandLine.arguments.dropFirst(),
        environment: [String: String]? = nil,
        body: (ParsedCommand) async throws -> Void
    ) async -> Never {
        let command: ParsedCommand
        switch prepare(spec: spec, arguments: arguments, environment: environment) {
        case .exit(let ending): finish(ending)
        case .run(let parsed): command = parsed
        }
        do {
            try await body(command)
            finish(Ending(code: 0))
        } catch {
            finish(ending(for: error))
        }
    }

    /// How the process ends: its exit status and what it prints on the way out.
    struct Ending: Equatable {
        var code: Int32
        var standardOutput = ""
        var standardError = ""
    }

    /// What to do after parsing.
    enum Step: Equatable {
        /// Run the body with this command.
        case run(ParsedCommand)
        /// End the process without running the body.
        case exit(Ending)
    }

    /// Parses, turning help and usage errors into endings.
    static func prepare(
        spec: CommandSpec, arguments: some Sequence<String>, environment: [String: String]?
    ) -> Step {
        let environment = environment ?? ProcessEnvironment.values(for: spec)
        do {
            switch try ArgumentParser.parse(arguments, spec: spec, environment: environment) {
            case .helpRequested(let text): return .exit(Ending(code: 0, standardOutput: text))
            case .versionRequested(let line): return .exit(Ending(code: 0, standardOutput: line))
            case .command(let command): return .run(command)
            }
        } catch {
            return .exit(ending(for: error))
        }
    }

    /// The ending for an error: a usage error (64) for `ArgumentError`, a failure (1) otherwise.
    static func ending(for error: any Error) -> Ending {
        if let error = error as? ArgumentError {
            return Ending(code: usageExitCode, standardError: "error: \(error.message) \(error.helpHint)\n")
        }
        return Ending(code: failureExitCode, standardError: "error: \(error)\n")
    }

    /// C's `stdout`, read through its symbol (Swift 6 refuses a reference to the mutable global itself).
    private static var standardOutputFile: UnsafeMutablePointer<FILE>? {
        // RTLD_DEFAULT is the null handle on glibc and musl.
        guard let symbol = dlsym(nil, "stdout") else { return nil }
        return symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
    }

    private static func finish(_ ending: Ending) -> Never {
        // Let the body's buffered print() output go first, so the ending follows it in a shared log.
        // Only stdout's buffer: fflush(nil) would also take stdin's lock, which a thread blocked in
        // readLine holds, and the process would never end.
        if let file = standardOutputFile { fflush(file) }
        if !ending.standardOutput.isEmpty { StandardStream.output.write(ending.standardOutput) }
        if !ending.standardError.isEmpty { StandardStream.error.write(ending.standardError) }
        exit(ending.code)
    }
}
