#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads this process's environment variables without Foundation.
enum ProcessEnvironment {
    /// The set values of every environment variable an option of `spec` (or a subcommand) names.
    static func values(for spec: CommandSpec) -> [String: String] {
        var values: [String: String] = [:]
        for name in spec.environmentVariables {
            if let pointer = getenv(name) { values[name] = String(cString: pointer) }
        }
        return values
    }
}
