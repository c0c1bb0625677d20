import BrokerModel

/// `value` as a uint32 wire count: negative is INVALID_ARGUMENT naming `field`; above `UInt32.max` it saturates.
func wireCount(_ value: Int, _ field: String) throws(BrokerError) -> UInt32 {
    guard value >= 0 else { throw .invalidArgument("\(field) must not be negative (got \(value))") }
    return UInt32(clamping: value)
}
