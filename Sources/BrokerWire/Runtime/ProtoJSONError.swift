/// Why a JSON text or value cannot be read as a message; `path` names where (`$.apps[0].appId`).
public struct ProtoJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the JSON value: `$` is the whole value.
    public var path: String
    /// What is wrong there.
    public var problem: String

    /// An error at `path`.
    public init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    /// `PATH: PROBLEM`.
    public var description: String { "\(path): \(problem)" }
}
