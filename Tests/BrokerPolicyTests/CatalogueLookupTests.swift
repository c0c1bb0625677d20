@testable import BrokerModel
@testable import BrokerPolicy
import Testing

/// The catalogue index `ObjectType` carries for fast look-ups must keep `String` semantics.
@Suite("Catalogue look-ups")
struct CatalogueLookupTests {
    /// "HKQuantityTypeIdentifierStepCount" with its K as U+212A KELVIN SIGN: a different spelling that
    /// `String` equality treats as the same identifier.
    static let kelvinStepCount = ObjectType("H\u{212A}QuantityTypeIdentifierStepCount")

    @Test func everyCatalogueTypeHasItsIndexAndSpelling() {
        for (index, descriptor) in TypeCatalogue.all.enumerated() {
            #expect(descriptor.type.catalogueIndex == index)
            #expect(TypeCatalogue.spelledIndex(of: descriptor.type) == index)
            #expect(TypeCatalogue.spelledIndex(of: ObjectType(descriptor.type.identifier)) == index)
            #expect(TypeCatalogue.descriptor(for: ObjectType(String(descriptor.type.identifier))) == descriptor)
            #expect(TypeCatalogue.isCharacteristic(descriptor.type) == descriptor.isCharacteristic)
        }
        #expect(TypeCatalogue.count == TypeCatalogue.all.count)
    }

    @Test func equalityAndHashingFollowTheIdentifier() {
        let samples: [ObjectType] = [
            .stepCount, ObjectType("HKQuantityTypeIdentifierStepCount"), Self.kelvinStepCount, .heartRate,
            ObjectType("x"), ObjectType("x"), ObjectType(""), ObjectType("ünïcödé"), ObjectType("u\u{308}nïcödé"),
        ]
        for left in samples {
            for right in samples {
                #expect((left == right) == (left.identifier == right.identifier), "\(left) vs \(right)")
                if left == right { #expect(left.hashValue == right.hashValue) }
            }
        }
        #expect(Self.kelvinStepCount == .stepCount)
        #expect(Set([Self.kelvinStepCount, .stepCount]).count == 1)
    }

    @Test func aCanonicallyEqualSpellingTakesTheCataloguesBytes() {
        // Issue 15 item 7: the odd spelling was kept, so grants were stored and deleted by it while
        // memory compared by catalogue type, and a revocation of stepCount missed them.
        #expect(Array(Self.kelvinStepCount.identifier.utf8) == Array("HKQuantityTypeIdentifierStepCount".utf8))
        #expect(TypeCatalogue.descriptor(for: Self.kelvinStepCount)?.type == .stepCount)
        #expect(TypeCatalogue.spelledIndex(of: Self.kelvinStepCount) == TypeCatalogue.spelledIndex(of: .stepCount))
        #expect(TypeCatalogue.byteOrderRank(of: Self.kelvinStepCount) == TypeCatalogue.byteOrderRank(of: .stepCount))
        #expect(throws: Never.self) { try TypeCatalogue.requireKnown([Self.kelvinStepCount], field: "types") }
        // Every catalogued type (each has a K), with each K spelled as KELVIN SIGN.
        for descriptor in TypeCatalogue.all {
            var scalars = String.UnicodeScalarView()
            for scalar in descriptor.type.identifier.unicodeScalars { scalars.append(scalar == "K" ? "\u{212A}" : scalar) }
            let odd = ObjectType(String(scalars))
            #expect(Array(String(scalars).utf8) != Array(descriptor.type.identifier.utf8))
            #expect(Array(odd.identifier.utf8) == Array(descriptor.type.identifier.utf8))
            #expect(odd.catalogueIndex == descriptor.type.catalogueIndex)
        }
    }

    @Test func uncataloguedIdentifiersKeepTheirBytes() {
        for text in ["ünïcödé", "u\u{308}nïcödé", "H\u{212A}QuantityTypeIdentifierMadeUp", "x", ""] {
            let type = ObjectType(text)
            #expect(Array(type.identifier.utf8) == Array(text.utf8))
            #expect(type.catalogueIndex == -1)
            #expect(TypeCatalogue.catalogueSpelling(of: type) == nil)
        }
    }

    @Test func knownTypeMatchesExactBytesOnly() {
        for descriptor in TypeCatalogue.all {
            let bytes = Array(descriptor.type.identifier.utf8)
            #expect(bytes.withUnsafeBufferPointer { TypeCatalogue.knownType(utf8: $0) } == descriptor.type)
            let shorter = Array(bytes.dropLast())
            #expect(shorter.withUnsafeBufferPointer { TypeCatalogue.knownType(utf8: $0) } == nil)
        }
        #expect([UInt8]().withUnsafeBufferPointer { TypeCatalogue.knownType(utf8: $0) } == nil)
    }

    @Test func byteOrderRanksSortAsStrcmp() {
        let types = TypeCatalogue.all.map(\.type)
        let byRank = types.sorted { TypeCatalogue.byteOrderRank(of: $0)! < TypeCatalogue.byteOrderRank(of: $1)! }
        let byBytes = types.sorted { Array($0.identifier.utf8).lexicographicallyPrecedes(Array($1.identifier.utf8)) }
        #expect(byRank == byBytes)
    }

    @Test func requireKnownReportsAsValidateDoes() {
        let lists: [[ObjectType]] = [[], [.stepCount], [ObjectType("nope")], [.stepCount, ObjectType("a"), ObjectType("a"), ObjectType("b")]]
        for types in lists {
            let validateError = thrown { () throws(BrokerError) in _ = try TypeCatalogue.validate(types, field: "types") }
            let requireError = thrown { () throws(BrokerError) in try TypeCatalogue.requireKnown(types, field: "types") }
            #expect(validateError == requireError)
        }
        let single = thrown { () throws(BrokerError) in try TypeCatalogue.requireKnown(ObjectType("z"), field: "type") }
        #expect(single != nil)
        #expect(single == thrown { () throws(BrokerError) in _ = try TypeCatalogue.validate([ObjectType("z")], field: "type") })
        #expect(thrown { () throws(BrokerError) in try TypeCatalogue.requireKnown(.workout, field: "type") } == nil)
    }

    @Test func appGrantsAccessorsMatchTheSubscript() {
        var set = AppGrants([
            Grant(type: .stepCount, share: .allow, read: .limited(fromMicros: 5), decidedMicros: 1, decidedBy: "a"),
            Grant(type: .heartRate, read: .full, decidedMicros: 1, decidedBy: "a"),
            Grant(type: ObjectType("uncatalogued"), share: .deny, read: .deny, decidedMicros: 1, decidedBy: "a"),
        ])
        func check() {
            for type in TypeCatalogue.all.map(\.type) + [ObjectType("uncatalogued"), ObjectType("other"), Self.kelvinStepCount] {
                #expect(set.share(for: type) == set[type]?.share, "\(type)")
                #expect(set.read(for: type) == set[type]?.read, "\(type)")
            }
        }
        check()
        set.apply([TypeDecision(type: .bodyMass, share: .deny, read: .deny), TypeDecision(type: .stepCount, read: .full)], at: 2, by: "b")
        check()
        set.revoke([.heartRate])
        check()
        set.grants[.sleepAnalysis] = Grant(type: .sleepAnalysis, read: .limited(fromMicros: 9), decidedMicros: 3, decidedBy: "c")
        check()
        set.revoke([])
        check()
        #expect(AppGrants().read(for: .stepCount) == nil)
    }

    @Test func listFormOfEarliestDatesMatchesTheDictionary() {
        let set = AppGrants([
            Grant(type: .stepCount, read: .limited(fromMicros: 5), decidedMicros: 1, decidedBy: "a"),
            Grant(type: .heartRate, read: .limited(fromMicros: 1_700_000_000_000_000), decidedMicros: 1, decidedBy: "a"),
            Grant(type: .bodyMass, read: .full, decidedMicros: 1, decidedBy: "a"),
            Grant(type: .dateOfBirth, read: .limited(fromMicros: 5), decidedMicros: 1, decidedBy: "a"),
        ])
        let lists: [[ObjectType]] = [
            [], [.stepCount], [.stepCount, .heartRate, .bodyMass, .dateOfBirth, .workout],
            [.heartRate, .stepCount, .heartRate, Self.kelvinStepCount], TypeCatalogue.all.map(\.type),
        ]
        for types in lists {
            var listed: [(ObjectType, Int64)] = []
            AuthorizationPolicy.forEachEarliestAuthorizedSampleDate(forCatalogued: types, grants: set, earliestPermitted: 100) {
                listed.append(($0, $1))
            }
            let dictionary = AuthorizationPolicy.earliestAuthorizedSampleDates(for: types, grants: set, earliestPermitted: 100)
            #expect(listed.count == dictionary.count)
            #expect(Dictionary(listed, uniquingKeysWith: { first, _ in first }) == dictionary)
            // The first of equal types is the one listed, as the dictionary keeps its first key.
            for (type, _) in listed {
                #expect(dictionary.keys.first { $0 == type }?.identifier == type.identifier)
            }
        }
    }

    /// The catalogue-index form (the broker's EASD path) calls back for the same types, dates and
    /// order as the list form of the types at those indexes.
    @Test func indexFormOfEarliestDatesMatchesTheListForm() {
        let set = AppGrants([
            Grant(type: .stepCount, read: .limited(fromMicros: 5), decidedMicros: 1, decidedBy: "a"),
            Grant(type: .heartRate, read: .limited(fromMicros: 1_700_000_000_000_000), decidedMicros: 1, decidedBy: "a"),
            Grant(type: .bodyMass, read: .full, decidedMicros: 1, decidedBy: "a"),
            Grant(type: .sleepAnalysis, read: .deny, decidedMicros: 1, decidedBy: "a"),
            Grant(type: .dateOfBirth, read: .limited(fromMicros: 5), decidedMicros: 1, decidedBy: "a"),
        ])
        let lists: [[ObjectType]] = [
            [], [.stepCount], [.stepCount, .heartRate, .bodyMass, .dateOfBirth, .workout, .sleepAnalysis],
            [.heartRate, .stepCount, .heartRate, Self.kelvinStepCount], TypeCatalogue.all.map(\.type),
            TypeCatalogue.all.map(\.type).reversed(),
        ]
        for types in lists {
            var listed: [(Int, Int64)] = []
            AuthorizationPolicy.forEachEarliestAuthorizedSampleDate(forCatalogued: types, grants: set, earliestPermitted: 100) {
                listed.append(($0.catalogueIndex, $1))
            }
            let indexes = types.map { Int32($0.catalogueIndex) }
            var indexed: [(Int, Int64)] = []
            indexes.withUnsafeBufferPointer {
                AuthorizationPolicy.forEachEarliestAuthorizedSampleDate(forCatalogueIndexes: $0, grants: set, earliestPermitted: 100) {
                    indexed.append(($0, $1))
                }
            }
            #expect(indexed.map(\.0) == listed.map(\.0))
            #expect(indexed.map(\.1) == listed.map(\.1))
        }
    }

    private func thrown(_ body: () throws(BrokerError) -> Void) -> BrokerError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
