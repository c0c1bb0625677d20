#if canImport(Glibc)
import Glibc
#endif

/// Writes structured log lines (`ts=… level=… msg="…" key=value`) to standard error.
///
/// Callers must never pass tokens, sample values or metadata as fields.
public struct Logger: Sendable {
    /// How much to log.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// Per-call detail.
        case debug = 0
        /// Lifecycle events: start, stop, connections.
        case info = 1
        /// Refused or failed operations.
        case warning = 2
        /// Failures of the broker itself.
        case error = 3

        /// Parses `debug`, `info`, `warning`/`warn` or `error`.
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// The lowest level written.
    public var minimumLevel: Level
    /// A component name added to every line (`component=…`).
    public var component: String

    /// Creates a logger.
    public init(component: String, minimumLevel: Level = .info) {
        self.component = component
        self.minimumLevel = minimumLevel
    }

    /// Logs at debug level.
    public func debug(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, Any> = [:]) { log(.debug, message, fields) }
    /// Logs at info level.
    public func info(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, Any> = [:]) { log(.info, message, fields) }
    /// Logs at warning level.
    public func warning(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, Any> = [:]) { log(.warning, message, fields) }
    /// Logs at error level.
    public func error(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> KeyValuePairs<String, Any> = [:]) { log(.error, message, fields) }

    /// Writes one line if `level` is at or above the minimum.
    public func log(_ level: Level, _ message: () -> String, _ fields: () -> KeyValuePairs<String, Any>) {
        guard level >= minimumLevel else { return }
        var line = "ts=\(Logger.timestamp()) level=\(level.name) component=\(component) msg=\(Logger.quote(message()))"
        for (key, value) in fields() {
            line += " \(key)=\(Logger.quote(String(describing: value)))"
        }
        line += "\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }

    static func quote(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.isNewline }
        guard needsQuotes else { return value }
        var escaped = "\""
        for character in value {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }

    static func timestamp() -> String {
        let micros = Microseconds.now()
        var seconds = time_t(micros / Microseconds.perSecond)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let fraction = Int32(micros % Microseconds.perSecond / 1_000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(fraction, 3))Z"
    }
}
