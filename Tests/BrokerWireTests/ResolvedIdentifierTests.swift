import BrokerModel
import Testing
@testable import BrokerWire

/// The hot requests' identifier fields as the generated reader resolves them (`ProtoTypeIdentifier`):
/// the strict reader and protobuf-c (through the `String` setter) read the same spellings and the
/// same catalogue indexes, and each resolves to the type `ObjectType(protoIdentifier:)` makes, so
/// the handlers that take them see what they saw before (unknown identifiers included).
@Suite("Resolved type identifiers of the hot requests")
struct ResolvedIdentifierTests {
    /// Catalogued, uncatalogued, empty, a Kelvin sign equal to a catalogued one, non-ASCII, long,
    /// a near miss of a catalogued identifier, and one with a NUL (written cut at it, as protobuf-c
    /// writes a C string).
    static let spellings: [String] = [
        "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate", "HKWorkoutTypeIdentifier",
        "zzz-unknown", "", "H\u{212A}QuantityTypeIdentifierStepCount", "ünïcödé",
        String(repeating: "long", count: 50), "HKQuantityTypeIdentifierStep", "HKQuantityTypeIdentifierStepCounT",
        "with\u{0}nul", "a",
    ]

    /// Both readings of `bytes`: (strict, protobuf-c).
    private static func readings<Message: ProtoMessage>(_ type: Message.Type, _ bytes: [UInt8]) -> (strict: Message?, reference: Message?) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtoReader(buffer)
            return (Message(strict: &reader), Message.unpacked(buffer))
        }
    }

    /// `identifier` resolves as `ObjectType(protoIdentifier:)` resolves its spelling.
    private static func resolvesAsBefore(_ identifier: ProtoTypeIdentifier) -> Bool {
        let before = ObjectType(protoIdentifier: identifier.spelling)
        let now = identifier.objectType
        let exactlyCatalogued = TypeCatalogue.all.contains { Array($0.type.identifier.utf8) == Array(identifier.spelling.utf8) }
        return now == before && now.identifier == before.identifier && now.catalogueIndex == before.catalogueIndex
            && (identifier.catalogueIndex >= 0) == exactlyCatalogued
    }

    @Test func authorizationStatusTypeIsResolvedAsProtobufCReadsIt() {
        for spelling in Self.spellings + TypeCatalogue.all.map(\.type.identifier) {
            var request = Proto.AuthorizationStatusRequest()
            request.type = spelling
            #expect(request.type == spelling)
            let (strict, reference) = Self.readings(Proto.AuthorizationStatusRequest.self, request.encoded())
            guard let reference else {
                Issue.record("protobuf-c refused \(spelling.debugDescription)")
                continue
            }
            #expect(Self.resolvesAsBefore(reference.resolvedType), "\(spelling.debugDescription)")
            #expect(strict == reference, "\(spelling.debugDescription)")
            #expect(strict?.resolvedType.catalogueIndex == reference.resolvedType.catalogueIndex, "\(spelling.debugDescription)")
            #expect(strict?.type == Self.sent(spelling))
            if let strict { #expect(Self.resolvesAsBefore(strict.resolvedType), "\(spelling.debugDescription)") }
        }
    }

    @Test func earliestAuthorizedSampleDateTypesAreResolvedAsProtobufCReadsThem() {
        let lists: [[String]] = [[], Self.spellings.filter { !$0.contains("\u{0}") }, ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierStepCount"],
                                 TypeCatalogue.all.map(\.type.identifier), Self.spellings]
        for types in lists {
            var request = Proto.EarliestAuthorizedSampleDateRequest()
            request.types = types
            #expect(request.types == types)
            let (strict, reference) = Self.readings(Proto.EarliestAuthorizedSampleDateRequest.self, request.encoded())
            guard let reference else {
                Issue.record("protobuf-c refused \(types)")
                continue
            }
            for identifier in reference.resolvedTypes { #expect(Self.resolvesAsBefore(identifier), "\(identifier.spelling.debugDescription)") }
            #expect(strict == reference)
            #expect(strict?.types == types.map(Self.sent))
            #expect(strict?.resolvedTypes.map(\.catalogueIndex) == reference.resolvedTypes.map(\.catalogueIndex))
        }
    }

    /// What goes on the wire for `spelling`: its bytes up to the first NUL.
    private static func sent(_ spelling: String) -> String {
        String(decoding: spelling.utf8.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An identifier holding a NUL on the wire: the strict reader declines it (protobuf-c's C string
    /// would end there) and protobuf-c's reading resolves as `ObjectType(protoIdentifier:)` does.
    @Test func aNulOnTheWireIsLeftToProtobufC() {
        let body = Array("HKQuantityTypeIdentifierStepCount".utf8) + [0] + Array("x".utf8)
        let bytes: [UInt8] = [0x0A, UInt8(body.count)] + body
        let (strict, reference) = Self.readings(Proto.AuthorizationStatusRequest.self, bytes)
        #expect(strict == nil)
        if let reference { #expect(Self.resolvesAsBefore(reference.resolvedType)) }
        let (strictList, referenceList) = Self.readings(Proto.EarliestAuthorizedSampleDateRequest.self, bytes)
        #expect(strictList == nil)
        for identifier in referenceList?.resolvedTypes ?? [] { #expect(Self.resolvesAsBefore(identifier)) }
    }

    /// The broker's path: a Call frame read straight into `Proto.Call` carries the resolved indexes.
    @Test func callFramesCarryTheResolvedIndexes() {
        var request = Proto.EarliestAuthorizedSampleDateRequest()
        request.types = ["HKQuantityTypeIdentifierHeartRate", "zzz-unknown", "HKQuantityTypeIdentifierStepCount"]
        var call = Proto.Call()
        call.callID = 9
        call.request = .earliestAuthorizedSampleDate(request)
        var frame = Proto.ClientFrame()
        frame.kind = .call(call)
        let bytes = frame.encoded()
        let fast = bytes.withUnsafeBufferPointer { WireCodec.decodeCallFrame($0) }
        guard case .earliestAuthorizedSampleDate(let decoded)? = fast?.request else {
            Issue.record("the fast path did not read the call")
            return
        }
        #expect(decoded.resolvedTypes.map(\.catalogueIndex) == [
            Int32(ObjectType.heartRate.catalogueIndex), -1, Int32(ObjectType.stepCount.catalogueIndex),
        ])
        #expect(decoded.resolvedTypes.map(\.objectType) == [.heartRate, ObjectType("zzz-unknown"), .stepCount])
    }

    /// Equality and hashing are the spelling's, whichever way a value was made.
    @Test func equalityIsTheSpellings() {
        for spelling in Self.spellings {
            let set = ProtoTypeIdentifier(spelling)
            #expect(set.spelling == spelling)
            #expect(set == ProtoTypeIdentifier(spelling))
            #expect(set.hashValue == ProtoTypeIdentifier(spelling).hashValue)
        }
        // String equality: the Kelvin sign spelling equals the catalogued one, as the String field did.
        let kelvin = ProtoTypeIdentifier("H\u{212A}QuantityTypeIdentifierStepCount")
        let catalogued = ProtoTypeIdentifier("HKQuantityTypeIdentifierStepCount")
        #expect(kelvin.catalogueIndex == -1)
        #expect(catalogued.catalogueIndex >= 0)
        #expect(kelvin == catalogued)
        #expect(kelvin.hashValue == catalogued.hashValue)
        #expect(kelvin.objectType == .stepCount)
        #expect(ProtoTypeIdentifier() == ProtoTypeIdentifier(""))
        #expect(ProtoTypeIdentifier("a") != ProtoTypeIdentifier("b"))
    }
}
