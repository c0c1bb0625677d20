#if canImport(Glibc)
import Glibc
#endif

/// Writes structured log lines (`ts=… level=… msg="…" key=value`) to standard error.
///
/// When standard error is the journal (`JOURNAL_STREAM` names its device and inode, as systemd
/// sets it), each line starts with its syslog priority (`<6>level=info …`) instead of the time,
/// which journald records itself; journald then files the line at that priority.
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

        /// The syslog priority journald files the line under (`<N>` prefix).
        var syslogPriority: Int {
            switch self {
            case .debug: 7
            case .info: 6
            case .warning: 4
            case .error: 3
            }
        }

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
        var line = Logger.writesToJournal ? "<\(level.syslogPriority)>" : "ts=\(Logger.timestamp()) "
        line += "level=\(level.name) component=\(component) msg=\(Logger.quote(message()))"
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

    /// Whether standard error is the journal's stream, checked once (the first line logged).
    static let writesToJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return isJournalStream(String(cString: value), device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }()

    /// Whether `JOURNAL_STREAM` (`DEVICE:INODE`, decimal) names the file with this device and inode.
    /// The variable is inherited by everything the service starts; only a match says that this
    /// stderr is still the journal and not a redirection.
    public static func isJournalStream(_ value: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let streamDevice = UInt64(parts[0]), let streamInode = UInt64(parts[1]) else { return false }
        return streamDevice == device && streamInode == inode
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
