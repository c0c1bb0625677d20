/// Short human text for a span of time: `3d 4h 5m 6s`, `12m 0s`, `42s`.
enum UptimeFormatter {
    /// `micros` as days, hours, minutes and whole seconds, leaving out leading zero units; negative spans read `0s`.
    static func string(micros: Int64) -> String {
        let totalSeconds = max(0, micros) / 1_000_000
        let units: [(Int64, String)] = [
            (totalSeconds / 86_400, "d"), (totalSeconds / 3_600 % 24, "h"),
            (totalSeconds / 60 % 60, "m"), (totalSeconds % 60, "s"),
        ]
        let shown = units.drop { $0.0 == 0 && $0.1 != "s" }
        return shown.map { "\($0.0)\($0.1)" }.joined(separator: " ")
    }
}
