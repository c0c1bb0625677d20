/// How far an import got: samples accepted (new or already present) and the time it took.
struct ImportTally: Equatable {
    /// Samples the broker accepted, new or already present.
    var imported = 0
    /// Of those, samples the broker already held with the same content.
    var alreadyPresent = 0

    /// `imported 1200 samples (200 already present), 8400/s`: the progress line while importing.
    func progressLine(seconds: Double) -> String {
        "imported \(imported) samples (\(alreadyPresent) already present), \(Self.rate(imported, seconds: seconds))/s"
    }

    /// `imported 1200 samples (200 already present) in 1.4 s (857/s)`: the final summary.
    func summary(seconds: Double) -> String {
        "imported \(imported) samples (\(alreadyPresent) already present) in \(Self.seconds(seconds)) s (\(Self.rate(imported, seconds: seconds))/s)"
    }

    /// Whole samples per second; 0 before any time has passed.
    static func rate(_ count: Int, seconds: Double) -> Int {
        seconds > 0 ? Int((Double(count) / seconds).rounded()) : 0
    }

    /// `1.4`: one decimal.
    static func seconds(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
