import BrokerModel

// TypeDates (an EarliestAuthorizedSampleDate reply) between the model and the .proto.
extension TypeDates {
    /// The dates a decoded EarliestAuthorizedSampleDateResponse holds, in the order they came (a
    /// type sent twice keeps its last date, as `TypeDates` reads its entries).
    package init(proto: Proto.EarliestAuthorizedSampleDateResponse) {
        guard !proto.dates.isEmpty else {
            self.init(entries: [])
            return
        }
        var entries: [Entry] = []
        entries.reserveCapacity(proto.dates.count)
        for date in proto.dates {
            entries.append(Entry(type: ObjectType(protoIdentifier: date.type), dateMicros: date.dateMicros))
        }
        self.init(entries: entries)
    }

    /// The dates as a .proto message: one entry per type (its last date), sorted by identifier as
    /// strcmp sorts the bytes sent, so that equal dates encode to equal bytes.
    package var proto: Proto.EarliestAuthorizedSampleDateResponse {
        var distinct: [Entry]
        if entries.count <= 16 {
            // A few entries: drop each one a later entry of the same type overrides, without hashing.
            distinct = []
            distinct.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated()
            where !entries[(index + 1)...].contains(where: { $0.type == entry.type }) {
                distinct.append(entry)
            }
        } else {
            distinct = dictionary.map { Entry(type: $0.key, dateMicros: $0.value) }
        }
        if distinct.count > 1 { distinct.sort { $0.type.precedesOnWire($1.type) } }
        var message = Proto.EarliestAuthorizedSampleDateResponse()
        message.dates.reserveCapacity(distinct.count)
        for entry in distinct {
            var date = Proto.TypeDate()
            date.type = entry.type.identifier
            date.dateMicros = entry.dateMicros
            message.dates.append(date)
        }
        return message
    }
}
