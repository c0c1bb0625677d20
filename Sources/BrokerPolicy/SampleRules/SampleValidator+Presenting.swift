public import BrokerModel

extension SampleValidator {
    /// Converts, in place, the rows of `descriptor`'s type whose quantity is not in `converter`'s unit.
    ///
    /// Rows already in the asked unit (and every non-quantity row) are left untouched, so a page's
    /// rows go out as the store read them, written in place by the generated row writer.
    public static func present(_ rows: inout [Sample], with converter: UnitConverter, descriptor: TypeDescriptor) throws(BrokerError) {
        let unit = converter.unit
        for index in rows.indices {
            guard case .quantity(let quantity) = rows[index].value, quantity.unit != unit else { continue }
            rows[index] = try presenting(rows[index], with: converter, descriptor: descriptor)
        }
    }
}
