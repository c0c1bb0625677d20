@_exported import BrokerCore

/// The error every client call throws: a status code, a HealthKit-style domain code and a message.
public typealias HealthBrokerError = BrokerError
