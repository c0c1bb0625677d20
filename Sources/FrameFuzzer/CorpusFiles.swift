#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The little file handling the fuzzer needs: writing the seed corpus and reading inputs to replay.
enum CorpusFiles {
    /// An I/O failure, with the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ what: String, _ path: String) {
            description = "\(what) \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// Writes every seed input into `directory` (created if missing), replacing files of the same
    /// name; returns how many files were written.
    static func writeSeeds(to directory: String) throws(Failure) -> Int {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw Failure("cannot create", directory) }
        let seeds = SeedFrames.corpus()
        for seed in seeds {
            try write(seed.bytes, to: directory + "/" + seed.name)
        }
        return seeds.count
    }

    /// Writes `bytes` to a new or truncated file at `path`.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        guard let file = fopen(path, "wb") else { throw Failure("cannot open", path) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        if written != bytes.count || closed != 0 { throw Failure("cannot write", path) }
    }

    /// The whole content of the file at `path`.
    static func read(_ path: String) throws(Failure) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Failure("cannot open", path) }
        defer { fclose(file) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            result += chunk.prefix(count)
            if count < chunk.count {
                if ferror(file) != 0 { throw Failure("cannot read", path) }
                return result
            }
        }
    }

    /// `path` itself if it is a file, else the regular files directly inside it, sorted by name.
    static func inputs(at path: String) throws(Failure) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure("cannot stat", path) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { throw Failure("cannot list", path) }
        defer { closedir(directory) }
        var files: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let child = path + "/" + name
            var childInfo = stat()
            if stat(child, &childInfo) == 0 && (childInfo.st_mode & S_IFMT) == S_IFREG { files.append(child) }
        }
        return files.sorted()
    }
}

/// Called by libFuzzer before fuzzing: with FRAMEFUZZER_WRITE_CORPUS=DIR set, the instrumented
/// binary writes the seed corpus into DIR and exits (so scripts/fuzz.sh needs no second build).
@_cdecl("LLVMFuzzerInitialize")
public func frameFuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    guard let directory = getenv("FRAMEFUZZER_WRITE_CORPUS") else { return 0 }
    let path = String(cString: directory)
    do {
        let count = try CorpusFiles.writeSeeds(to: path)
        print("FrameFuzzer: wrote \(count) seed inputs to \(path)")
        exit(0)
    } catch {
        print("FrameFuzzer: \(error)")
        exit(1)
    }
}
