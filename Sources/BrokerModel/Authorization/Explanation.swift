/// Why an app sees what it sees for one type: for the operator, never for the app.
public struct Explanation: Sendable, Hashable {
    /// The recorded grant; nil when the app never asked for the type.
    public var grant: Grant?
    /// The store's earliest permitted date.
    package var earliestPermittedMicros: Int64
    /// The first instant the app may read from (nil: it reads only its own samples, or never asked).
    package var effectiveReadFromMicros: Int64?
    /// One paragraph for people.
    public var text: String

    /// Creates an explanation.
    package init(grant: Grant?, earliestPermittedMicros: Int64, effectiveReadFromMicros: Int64?, text: String) {
        self.grant = grant
        self.earliestPermittedMicros = earliestPermittedMicros
        self.effectiveReadFromMicros = effectiveReadFromMicros
        self.text = text
    }
}
