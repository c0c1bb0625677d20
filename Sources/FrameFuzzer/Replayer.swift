// The fuzz entry point is `LLVMFuzzerTestOneInput` (FrameFuzzHarness.swift); scripts/fuzz.sh builds
// this target with -sanitize=fuzzer,address and -DFUZZING, where libFuzzer supplies `main`.
//
// In an ordinary build this is the executable: a replayer that runs files (or every file in
// directories) through the same checks, so a crash file from fuzz/crashes/ reproduces without
// sanitizers, and `--write-corpus DIR` writes the seed corpus. It is an `@main` type rather than
// main.swift because the fuzzer build parses the target as a library, which rejects top-level
// statements even inside an inactive `#if`.
#if !FUZZING
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum Replayer {
    static let usage = """
        usage: FrameFuzzer FILE|DIR...          replay inputs through the fuzz checks
               FrameFuzzer --write-corpus DIR   write the seed corpus into DIR
        """

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
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
            say(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        do {
            if arguments[0] == "--write-corpus" {
                guard arguments.count == 2 else {
                    say(usage)
                    exit(2)
                }
                let count = try CorpusFiles.writeSeeds(to: arguments[1])
                say("FrameFuzzer: wrote \(count) seed inputs to \(arguments[1])")
                return
            }
            var replayed = 0
            for argument in arguments {
                for path in try CorpusFiles.inputs(at: argument) {
                    let bytes = try CorpusFiles.read(path)
                    say("replaying \(path) (\(bytes.count) bytes)")
                    bytes.withUnsafeBufferPointer { FrameFuzzHarness.run($0) }
                    replayed += 1
                }
            }
            say("FrameFuzzer: \(replayed) inputs replayed, all checks held")
        } catch {
            say("FrameFuzzer: \(error)")
            exit(1)
        }
    }
}
#endif
