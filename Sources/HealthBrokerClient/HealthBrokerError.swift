// The one module an app gets with `import HealthBrokerClient`: the model its calls take and return.
// Nothing else is re-exported (the broker's policy and process support stay out of apps' sight).
@_exported public import BrokerModel

/// The error every client call throws: a status code, a HealthKit-style domain code and a message.
public typealias HealthBrokerError = BrokerError
