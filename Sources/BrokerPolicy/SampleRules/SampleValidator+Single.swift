public import BrokerModel

extension SampleValidator {
    /// One sample checked and normalised exactly as `validate` checks each sample of a batch (its
    /// error's message without the "samples[INDEX]: " prefix), without building a batch: for a
    /// client checking records one by one (healthctl's Apple Health import).
    public static func validated(_ sample: Sample, earliestPermitted: Int64) throws(BrokerError) -> Sample {
        var checked = try normalise(sample, earliestPermitted: earliestPermitted)
        checked.sourceAppID = ""
        checked.createdMicros = 0
        return checked
    }
}
