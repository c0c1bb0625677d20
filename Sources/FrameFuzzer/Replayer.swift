// The fuzz entry point is `LLVMFuzzerTestOneInput` (FrameFuzzHarness.swift); scripts/fuzz.sh builds
// this target with -sanitize=fuzzer,address and -DFUZZING, where libFuzzer supplies `main`.
//
// In an ordinary build this is the executable: a replayer that runs files (or every file in
// directories) through the same checks, so a crash file from fuzz/crashes/ reproduces without
// sanitizers, and `--write-corpus DIR` writes the seed corpus. It is an `@main` type rather than
// main.swift because the fuzzer build parses the target as a library, which rejects top-level
// statements even inside an inactive `#if`.
#if !FUZZING
import BrokerModel
import CommandLineSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum Replayer {
    static let spec = CommandSpec(
        "FrameFuzzer",
        summary: "Replay fuzz inputs through the fuzz checks, or write the seed corpus.",
        discussion: """
            Each INPUT file (or every file in an INPUT folder) goes through the same checks as the libFuzzer build of \
            scripts/fuzz.sh: frame decoding, protobuf-c against the generated codec, re-encoding. A crash \
            file from fuzz/crashes/ reproduces here without sanitizers.
            """,
        options: [
            .option("write-corpus", value: "DIR", help: "Write the seed corpus (SeedFrames) into DIR instead of replaying."),
        ],
        positionals: [PositionalSpec("INPUT", help: "A fuzz input file, or a folder of them.", optional: true, variadic: true)],
        version: BrokerVersion.broker)

    /// Writes `line` to standard output unbuffered, so that it is out before a trap.
    static func say(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = write(STDOUT_FILENO, rest.baseAddress, rest.count)
                if written <= 0 { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }

    static func main() {
        CommandLineTool.run(spec: spec) { command in
            if let folder = command.string("write-corpus") {
                guard command.positionals("INPUT").isEmpty else {
                    throw ArgumentError(.unexpectedArgument, "--write-corpus takes no INPUT", command: "FrameFuzzer")
                }
                let count = try CorpusFiles.writeSeeds(to: folder)
                say("FrameFuzzer: wrote \(count) seed inputs to \(folder)")
                return
            }
            let inputs = command.positionals("INPUT")
            guard !inputs.isEmpty else { throw ArgumentError(.missingArgument, "give an INPUT to replay, or --write-corpus DIR", command: "FrameFuzzer") }
            var replayed = 0
            for argument in inputs {
                for path in try CorpusFiles.inputs(at: argument) {
                    let bytes = try CorpusFiles.read(path)
                    say("replaying \(path) (\(bytes.count) bytes)")
                    bytes.withUnsafeBufferPointer { FrameFuzzHarness.run($0) }
                    replayed += 1
                }
            }
            say("FrameFuzzer: \(replayed) inputs replayed, all checks held")
        }
    }
}
#endif
