import BrokerModel

/// Helpers for putting client-chosen text into error messages.
enum MessageText {
    /// `text` cut to at most `limit` characters, with "…" when cut.
    static func clipped(_ text: String, limit: Int = 48) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
