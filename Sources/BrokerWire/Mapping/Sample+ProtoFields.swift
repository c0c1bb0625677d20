package import BrokerModel

// The model samples the store hands the broker, read in place by the generated row writer
// (Proto+Fields.pb.swift): a Query page is written from its rows without a `Proto.Sample` per row,
// to the bytes `Sample.proto` would pack (SampleRowWriterTests compares them with protobuf-c); so are
// AnchoredQuery pages, and the correlation Query's and AdminExport's pages.
extension Sample: Proto.SampleFields {
    package typealias QuantitySource = Quantity
    package typealias WorkoutSource = WorkoutDetails
    package typealias CorrelationSource = SampleMembers
    package typealias MetadataSource = MetadataPair

    package var protoUUID: String { @inline(__always) get { uuid } }
    package var protoType: String { @inline(__always) get { type.identifier } }
    /// A catalogued type is spelled with the catalogue's bytes (`ObjectType(_:)`), so its index is all the writer needs.
    package var protoTypeCatalogueIndex: Int { @inline(__always) get { type.catalogueIndex } }
    package var protoStartMicros: Int64 { @inline(__always) get { startMicros } }
    package var protoEndMicros: Int64 { @inline(__always) get { endMicros } }
    package var protoSourceAppID: String { @inline(__always) get { sourceAppID } }
    package var protoCreatedMicros: Int64 { @inline(__always) get { createdMicros } }

    package var protoValue: Proto.SampleValueFields<Quantity, WorkoutDetails, SampleMembers>? {
        @inline(__always) get {
            switch value {
            case .quantity(let quantity): .quantity(quantity)
            case .category(let value): .categoryValue(value)
            case .workout(let details): .workout(details)
            case .correlation(let members): .correlation(SampleMembers(members: members))
            }
        }
    }

    /// The metadata as `proto` sends it: sorted by key in strcmp order of the bytes sent, so equal
    /// samples encode to equal bytes whatever their dictionaries' order.
    @inline(__always)
    package func withProtoMetadata<R>(_ body: (UnsafeBufferPointer<MetadataPair>) -> R) -> R {
        guard !metadata.isEmpty else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        var entries: [MetadataPair] = []
        entries.reserveCapacity(metadata.count)
        for (key, value) in metadata { entries.append(MetadataPair(protoKey: key, protoValue: value)) }
        if entries.count > 1 { entries.sort { $0.protoKey.precedesAsCString($1.protoKey) } }
        return entries.withUnsafeBufferPointer(body)
    }

    /// Appends a ServerFrame whose stream item is a SamplePage of `rows`, written in place: the
    /// bytes of the frame holding `Sample.proto` of each row.
    package static func appendPage(callID: UInt64, rows: UnsafeBufferPointer<Sample>, to buffer: inout [UInt8]) {
        Proto.ServerFrame.appendFrame(callID: callID, status: nil, streamItemSamples: rows, to: &buffer)
    }
}

extension Quantity: Proto.QuantityFields {
    package var protoValue: Double { @inline(__always) get { value } }
    package var protoUnit: String { @inline(__always) get { unit } }
}

extension WorkoutDetails: Proto.WorkoutFields {
    package typealias TotalEnergySource = Quantity
    package typealias TotalDistanceSource = Quantity

    package var protoActivityType: String { @inline(__always) get { activityType } }
    package var protoDurationMicros: Int64 { @inline(__always) get { durationMicros } }
    package var protoTotalEnergy: Quantity? { @inline(__always) get { totalEnergy } }
    package var protoTotalDistance: Quantity? { @inline(__always) get { totalDistance } }
}

/// A correlation's member samples, as the rows of its Correlation message.
package struct SampleMembers: Proto.CorrelationFields {
    /// The members, in the order they are written.
    package let members: [Sample]

    @inline(__always)
    package func withProtoObjects<R>(_ body: (UnsafeBufferPointer<Sample>) -> R) -> R {
        members.withUnsafeBufferPointer(body)
    }
}

/// One metadata entry, as the row of its MetadataEntry message.
package struct MetadataPair: Proto.MetadataEntryFields {
    /// key = 1.
    package let protoKey: String
    /// value = 2.
    package let protoValue: String
}
