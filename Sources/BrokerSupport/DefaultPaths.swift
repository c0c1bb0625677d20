#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon and its tools look for sockets and data when no flag says otherwise.
///
/// Runtime directory: `$HEALTHBROKER_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/healthbroker`, else
/// `/tmp/healthbroker-<uid>`. Data directory: `$HEALTHBROKER_DATA_DIR`, else
/// `$XDG_DATA_HOME/healthbroker`, else `$HOME/.local/share/healthbroker`, else `./healthbroker-data`.
public enum DefaultPaths {
    /// The folder holding both sockets.
    public static var runtimeDirectory: String {
        if let dir = environment("HEALTHBROKER_RUNTIME_DIR") { return dir }
        if let dir = environment("XDG_RUNTIME_DIR") { return dir + "/healthbroker" }
        return "/tmp/healthbroker-\(getuid())"
    }

    /// The app socket: any local user may connect; identity is the app token.
    public static var appSocket: String { runtimeDirectory + "/app.sock" }

    /// The admin socket: mode 0600, for `healthctl` and consent agents.
    public static var adminSocket: String { runtimeDirectory + "/admin.sock" }

    /// The folder holding the SQLite database.
    public static var dataDirectory: String {
        if let dir = environment("HEALTHBROKER_DATA_DIR") { return dir }
        if let dir = environment("XDG_DATA_HOME") { return dir + "/healthbroker" }
        if let home = environment("HOME") { return home + "/.local/share/healthbroker" }
        return "./healthbroker-data"
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }
}
