import BrokerModel
import BrokerPolicy
import BrokerStore
import Testing

/// The store and the whole HealthKit catalogue: a database made when the catalogue held 16 types
/// opens, keeps its codes and samples, and gives every new type a code.
@Suite("Catalogue type codes")
struct CatalogueTypeCodeTests {
    /// The identifiers of `type_codes`, by code.
    static func codes(_ database: Database) throws -> [Int64: String] {
        let statement = try database.prepare("SELECT code, identifier FROM type_codes")
        return try statement.run { statement throws(BrokerError) in
            var codes: [Int64: String] = [:]
            while try statement.step() { codes[statement.int64(at: 0)] = statement.string(at: 1) }
            return codes
        }
    }

    @Test func aDatabaseOfTheFirstCatalogueOpensAndCodesEveryNewType() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try DataDirectory.prepare(directory.path)
        let first = Array(TypeCatalogue.all.prefix(16).filter { !$0.isCharacteristic })
        do {
            let database = try Database(path: path)
            _ = try BrokerSchema.migrations.apply(to: database)
            // What a broker of the first catalogue stored: codes for its 13 sample types, and a step sample.
            let values = first.enumerated().map { "(\($0.offset + 1), '\($0.element.type.identifier)')" }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO type_codes (code, identifier) VALUES \(values);
                INSERT INTO app_codes (code, app_id) VALUES (1, 'com.example.a');
                INSERT INTO samples (seq, uuid, type, start_us, end_us, value_kind, quantity, unit, metadata, app, created_us)
                VALUES (1, stored_uuid('00000000-0000-4000-8000-000000000001'), 1, 100, 200, 1, 7, 'count', NULL, 1, 9);
                UPDATE change_sequence SET last_seq = 1;
                """)
            database.close()
        }
        do {
            let store = try BrokerStore(dataDirectory: directory.path)
            defer { store.close() }
            #expect(try Fixture.readAll(store, appID: "com.example.a").map(\.uuid) == ["00000000-0000-4000-8000-000000000001"])
            let glucose = Sample(uuid: Fixture.uuid(2), type: .bloodGlucose, startMicros: 300, endMicros: 300,
                                 value: .quantity(Quantity(99.09, "mg/dL")))
            _ = try store.saveSamples([glucose], sourceAppID: "com.example.a", now: 400)
            #expect(try Fixture.readAll(store, type: .bloodGlucose, appID: "com.example.a").map(\.uuid) == [Fixture.uuid(2)])
        }
        let database = try Database(path: path)
        defer { database.close() }
        let codes = try Self.codes(database)
        // The old codes are unchanged; every sample type of the catalogue has one; none was made twice.
        for (index, descriptor) in first.enumerated() { #expect(codes[Int64(index + 1)] == descriptor.type.identifier) }
        let sampleTypes = TypeCatalogue.all.filter { !$0.isCharacteristic }.map(\.type.identifier)
        #expect(Set(codes.values) == Set(sampleTypes))
        #expect(codes.count == sampleTypes.count)
    }
}
