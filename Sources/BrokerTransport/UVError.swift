public import BrokerModel
import CLibUV

/// A failed libuv call: the operation, libuv's error number and its name (e.g. `EADDRINUSE`).
public struct UVError: Error, Sendable, CustomStringConvertible {
    /// The negative libuv error number.
    public let code: Int32
    /// libuv's name for the error, from `uv_err_name`.
    public let name: String
    /// What was being attempted, e.g. "bind /run/x.sock".
    public let operation: String

    /// Wraps a negative libuv result.
    public init(code: Int32, operation: String) {
        self.code = code
        self.name = String(cString: uv_err_name(code))
        self.operation = operation
    }

    /// `operation: NAME (strerror)`.
    public var description: String {
        "\(operation): \(name) (\(String(cString: uv_strerror(code))))"
    }

    /// The same failure as an `UNAVAILABLE` broker error.
    public var brokerError: BrokerError {
        BrokerError(code: .unavailable, message: description)
    }
}

/// Turns a negative libuv result into a thrown `UVError`; returns non-negative results unchanged.
@discardableResult
package func uvCheck(_ result: Int32, _ operation: @autoclosure () -> String) throws(UVError) -> Int32 {
    if result < 0 { throw UVError(code: result, operation: operation()) }
    return result
}
