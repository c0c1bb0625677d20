public import BrokerModel

// The sample queries (SampleQuery, AnchoredQuery) and their parts (SamplePredicate, SampleSort)
// between the model and the .proto.
extension SampleQuery {
    /// The query a decoded QueryRequest holds.
    public init(proto: Proto.QueryRequest) {
        self.init(
            type: ObjectType(protoIdentifier: proto.type),
            predicate: SamplePredicate(proto: proto.predicate),
            limit: proto.limit,
            sort: SampleSort(proto: proto.sort),
            unit: proto.unit,
            pageSize: proto.pageSize)
    }

    /// The query as a .proto message; predicate and sort are always sent.
    package var proto: Proto.QueryRequest {
        var message = Proto.QueryRequest()
        message.type = type.identifier
        message.predicate = predicate.proto
        message.limit = limit
        message.sort = sort.proto
        message.unit = unit
        message.pageSize = pageSize
        return message
    }
}

extension AnchoredQuery {
    /// The query a decoded AnchoredQueryRequest holds.
    public init(proto: Proto.AnchoredQueryRequest) {
        self.init(
            type: ObjectType(protoIdentifier: proto.type),
            predicate: SamplePredicate(proto: proto.predicate),
            anchor: proto.anchor,
            limit: proto.limit,
            unit: proto.unit)
    }

    /// The query as a .proto message; the predicate is always sent.
    package var proto: Proto.AnchoredQueryRequest {
        var message = Proto.AnchoredQueryRequest()
        message.type = type.identifier
        message.predicate = predicate.proto
        message.anchor = anchor
        message.limit = limit
        message.unit = unit
        return message
    }
}

extension SamplePredicate {
    /// The predicate a decoded SamplePredicate holds; an absent one matches everything. Option bits
    /// this build does not know are kept.
    public init(proto: Proto.SamplePredicate?) {
        guard let proto else {
            self = .all
            return
        }
        self.init(
            startMicros: proto.hasStart ? proto.startMicros : nil,
            endMicros: proto.hasEnd ? proto.endMicros : nil,
            options: Options(rawValue: proto.options))
    }

    /// The predicate as a .proto message: a nil bound is `has_…` false (and 0).
    package var proto: Proto.SamplePredicate {
        var message = Proto.SamplePredicate()
        message.hasStart = startMicros != nil
        message.startMicros = startMicros ?? 0
        message.hasEnd = endMicros != nil
        message.endMicros = endMicros ?? 0
        message.options = options.rawValue
        return message
    }
}

extension SampleSort {
    /// The sort a decoded SampleSort holds; an absent one is by start date, ascending, and a key
    /// number this build does not know is the start date.
    package init(proto: Proto.SampleSort?) {
        guard let proto else {
            self.init()
            return
        }
        self.init(key: Key(rawValue: proto.key.rawValue) ?? .startDate, descending: proto.descending)
    }

    /// The sort as a .proto message.
    package var proto: Proto.SampleSort {
        var message = Proto.SampleSort()
        message.key = Proto.SortKey(rawValue: key.rawValue)
        message.descending = descending
        return message
    }
}

extension AnchoredPage {
    /// The page a decoded AnchoredPage holds. The deleted source app ids are kept as they came, even
    /// when fewer or more than the deleted uuids (see AnchoredPage).
    package init(proto: Proto.AnchoredPage) throws(BrokerError) {
        self.init(
            added: try Sample.samples(proto: proto.added),
            deletedUUIDs: proto.deletedUUIDs,
            deletedSourceAppIDs: proto.deletedSourceAppIDs,
            newAnchor: proto.newAnchor,
            done: proto.done)
    }

    /// The page as a .proto message.
    package var proto: Proto.AnchoredPage {
        var message = Proto.AnchoredPage()
        message.added = Sample.proto(added)
        message.deletedUUIDs = deletedUUIDs
        message.newAnchor = newAnchor
        message.done = done
        message.deletedSourceAppIDs = deletedSourceAppIDs
        return message
    }
}
