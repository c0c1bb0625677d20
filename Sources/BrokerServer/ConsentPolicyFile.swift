import BrokerModel
import BrokerPolicy
import BrokerSupport
#if canImport(Glibc)
import Glibc
#endif

/// Reads a consent policy file (`--consent-policy`): at start, and again on every SIGHUP.
enum ConsentPolicyFile {
    /// The largest policy file read (a policy is a few rules; this only stops a wrong path such as
    /// a device or a huge log from being read into memory).
    static let maxBytes = 4 * 1024 * 1024

    /// How `ConsentPolicy`'s error messages begin.
    private static let parserPrefix = "consent policy: "

    /// Reads and parses the policy at `path`.
    ///
    /// - Throws: INVALID_ARGUMENT naming the file: it cannot be read, is too big, or is not a valid
    ///   policy (the parser's message names the rule and field).
    static func load(_ path: String) throws(BrokerError) -> ConsentPolicy {
        let bytes = try read(path)
        do throws(BrokerError) {
            return try ConsentPolicy(jsonData: bytes, now: Microseconds.now())
        } catch {
            // The parser's messages start "consent policy: "; naming the file replaces that prefix
            // rather than repeating it.
            let detail = error.message.hasPrefix(parserPrefix) ? String(error.message.dropFirst(parserPrefix.count)) : error.message
            throw .invalidArgument("consent policy \(path): \(detail)")
        }
    }

    /// The whole file, or INVALID_ARGUMENT naming it and the reason.
    private static func read(_ path: String) throws(BrokerError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > maxBytes {
                throw .invalidArgument("cannot read the consent policy \(path): larger than \(maxBytes) bytes")
            }
        }
    }

    private static func failure(_ path: String) -> BrokerError {
        .invalidArgument("cannot read the consent policy \(path): \(String(cString: strerror(errno)))")
    }
}
