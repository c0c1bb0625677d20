import BrokerModel
import HealthBrokerProto

// The app socket's sample methods (Save, Delete, Query, AnchoredQuery) and their parts
// (SamplePredicate, SampleSort, AnchoredPage), in both directions.
extension WireCodec {
    // MARK: Predicate and sort

    /// The C form of `predicate`: a nil bound is `has_…` false (and 0); option bits go as they are.
    static func cSamplePredicate(_ predicate: SamplePredicate) -> Healthbroker__V1__SamplePredicate {
        var message = Healthbroker__V1__SamplePredicate()
        healthbroker__v1__sample_predicate__init(&message)
        message.has_start = predicate.startMicros == nil ? 0 : 1
        message.start_us = predicate.startMicros ?? 0
        message.has_end = predicate.endMicros == nil ? 0 : 1
        message.end_us = predicate.endMicros ?? 0
        message.options = predicate.options.rawValue
        return message
    }

    /// The Swift form of an unpacked SamplePredicate; an absent one matches everything. Option bits
    /// this build does not know are kept.
    static func samplePredicate(_ message: UnsafePointer<Healthbroker__V1__SamplePredicate>?) -> SamplePredicate {
        guard let message else { return .all }
        return SamplePredicate(
            startMicros: message.pointee.has_start != 0 ? message.pointee.start_us : nil,
            endMicros: message.pointee.has_end != 0 ? message.pointee.end_us : nil,
            options: SamplePredicate.Options(rawValue: message.pointee.options))
    }

    /// The C form of `sort`.
    static func cSampleSort(_ sort: SampleSort) -> Healthbroker__V1__SampleSort {
        var message = Healthbroker__V1__SampleSort()
        healthbroker__v1__sample_sort__init(&message)
        message.key = Healthbroker__V1__SortKey(rawValue: .init(truncatingIfNeeded: sort.key.rawValue))
        message.descending = sort.descending ? 1 : 0
        return message
    }

    /// The Swift form of an unpacked SampleSort; an absent one is by start date, ascending, and a key
    /// number this build does not know is the start date.
    static func sampleSort(_ message: UnsafePointer<Healthbroker__V1__SampleSort>?) -> SampleSort {
        guard let message else { return SampleSort() }
        return SampleSort(
            key: SampleSort.Key(rawValue: wireInt32(message.pointee.key.rawValue)) ?? .startDate,
            descending: message.pointee.descending != 0)
    }

    // MARK: Save

    /// Runs `body` with the C form of a Save request, valid only inside `body`.
    static func withCSaveRequest<R>(
        _ samples: [Sample], _ body: (UnsafeMutablePointer<Healthbroker__V1__SaveRequest>) -> R
    ) -> R {
        withCSamples(samples) { list, count in
            var message = Healthbroker__V1__SaveRequest()
            healthbroker__v1__save_request__init(&message)
            message.n_samples = count
            message.samples = list
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    // MARK: Delete

    /// Runs `body` with the C form of a Delete request, valid only inside `body`: a nil type is "",
    /// a nil predicate an absent sub-message.
    static func withCDeleteRequest<R>(
        uuids: [String], type: ObjectType?, predicate: SamplePredicate?,
        _ body: (UnsafeMutablePointer<Healthbroker__V1__DeleteRequest>) -> R
    ) -> R {
        let identifier = type?.identifier ?? ""
        let textBytes = CStringWriter.byteCount(of: identifier) + CStringWriter.byteCount(of: uuids)
        return withCText(textBytes: textBytes, pointerCount: uuids.count) { writer, pointers in
            var message = Healthbroker__V1__DeleteRequest()
            healthbroker__v1__delete_request__init(&message)
            message.type = writer.write(identifier)
            writer.write(uuids, to: pointers)
            message.n_uuids = uuids.count
            message.uuids = pointers
            guard let predicate else { return withUnsafeMutablePointer(to: &message, body) }
            var cPredicate = cSamplePredicate(predicate)
            return withUnsafeMutablePointer(to: &cPredicate) { cPredicate in
                message.predicate = cPredicate
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked Delete request ("" type and an absent predicate read as nil).
    static func deleteRequest(_ message: UnsafePointer<Healthbroker__V1__DeleteRequest>) throws(BrokerError) -> Request {
        let identifier = string(message.pointee.type)
        return .delete(
            uuids: try strings(message.pointee.uuids, count: message.pointee.n_uuids, in: "ClientFrame"),
            type: identifier.isEmpty ? nil : ObjectType(identifier),
            predicate: message.pointee.predicate.map { samplePredicate(UnsafePointer($0)) })
    }

    // MARK: Query

    /// Runs `body` with the C form of a Query request, valid only inside `body`; predicate and sort
    /// are always sent.
    static func withCQueryRequest<R>(
        _ query: SampleQuery, _ body: (UnsafeMutablePointer<Healthbroker__V1__QueryRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__QueryRequest()
        healthbroker__v1__query_request__init(&message)
        message.limit = query.limit
        message.page_size = query.pageSize
        var predicate = cSamplePredicate(query.predicate)
        var sort = cSampleSort(query.sort)
        return query.type.identifier.withCString { type in
            query.unit.withCString { unit in
                withUnsafeMutablePointer(to: &predicate) { predicate in
                    withUnsafeMutablePointer(to: &sort) { sort in
                        message.type = field(type)
                        message.unit = field(unit)
                        message.predicate = predicate
                        message.sort = sort
                        return withUnsafeMutablePointer(to: &message, body)
                    }
                }
            }
        }
    }

    /// The Swift form of an unpacked Query request.
    static func sampleQuery(_ message: UnsafePointer<Healthbroker__V1__QueryRequest>) -> SampleQuery {
        SampleQuery(
            type: objectType(message.pointee.type),
            predicate: samplePredicate(message.pointee.predicate.map { UnsafePointer($0) }),
            limit: message.pointee.limit,
            sort: sampleSort(message.pointee.sort.map { UnsafePointer($0) }),
            unit: string(message.pointee.unit),
            pageSize: message.pointee.page_size)
    }

    // MARK: AnchoredQuery

    /// Runs `body` with the C form of an AnchoredQuery request, valid only inside `body`.
    static func withCAnchoredQueryRequest<R>(
        _ query: AnchoredQuery, _ body: (UnsafeMutablePointer<Healthbroker__V1__AnchoredQueryRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AnchoredQueryRequest()
        healthbroker__v1__anchored_query_request__init(&message)
        message.limit = query.limit
        var predicate = cSamplePredicate(query.predicate)
        return query.type.identifier.withCString { type in
            query.unit.withCString { unit in
                query.anchor.withUnsafeBufferPointer { anchor in
                    withUnsafeMutablePointer(to: &predicate) { predicate in
                        message.type = field(type)
                        message.unit = field(unit)
                        message.anchor = binaryData(anchor)
                        message.predicate = predicate
                        return withUnsafeMutablePointer(to: &message, body)
                    }
                }
            }
        }
    }

    /// The Swift form of an unpacked AnchoredQuery request.
    static func anchoredQuery(_ message: UnsafePointer<Healthbroker__V1__AnchoredQueryRequest>) -> AnchoredQuery {
        AnchoredQuery(
            type: objectType(message.pointee.type),
            predicate: samplePredicate(message.pointee.predicate.map { UnsafePointer($0) }),
            anchor: bytes(message.pointee.anchor),
            limit: message.pointee.limit,
            unit: string(message.pointee.unit))
    }

    /// Runs `body` with the C form of `page`, valid only inside `body`.
    static func withCAnchoredPage<R>(
        _ page: AnchoredPage, _ body: (UnsafeMutablePointer<Healthbroker__V1__AnchoredPage>) -> R
    ) -> R {
        withCSamples(page.added) { added, addedCount in
            // One scratch buffer for both deleted lists: the uuids, then their source app ids.
            let uuidCount = page.deletedUUIDs.count
            let sourceCount = page.deletedSourceAppIDs.count
            return withCText(
                textBytes: CStringWriter.byteCount(of: page.deletedUUIDs) + CStringWriter.byteCount(of: page.deletedSourceAppIDs),
                pointerCount: uuidCount + sourceCount
            ) { writer, pointers in
                page.newAnchor.withUnsafeBufferPointer { newAnchor in
                    var message = Healthbroker__V1__AnchoredPage()
                    healthbroker__v1__anchored_page__init(&message)
                    message.n_added = addedCount
                    message.added = added
                    writer.write(page.deletedUUIDs, to: pointers)
                    message.n_deleted_uuids = uuidCount
                    message.deleted_uuids = pointers
                    writer.write(page.deletedSourceAppIDs, to: pointers + uuidCount)
                    message.n_deleted_source_app_ids = sourceCount
                    message.deleted_source_app_ids = pointers + uuidCount
                    message.new_anchor = binaryData(newAnchor)
                    message.done = page.done ? 1 : 0
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        }
    }

    /// The Swift form of an unpacked AnchoredPage.
    static func anchoredPage(_ message: UnsafePointer<Healthbroker__V1__AnchoredPage>) throws(BrokerError) -> AnchoredPage {
        AnchoredPage(
            added: try samples(message.pointee.added, count: message.pointee.n_added, in: "ServerFrame"),
            deletedUUIDs: try strings(message.pointee.deleted_uuids, count: message.pointee.n_deleted_uuids, in: "ServerFrame"),
            // Kept as it came, even when its length differs from deletedUUIDs' (see AnchoredPage).
            deletedSourceAppIDs: try strings(
                message.pointee.deleted_source_app_ids, count: message.pointee.n_deleted_source_app_ids, in: "ServerFrame"),
            newAnchor: bytes(message.pointee.new_anchor),
            done: message.pointee.done != 0)
    }
}
