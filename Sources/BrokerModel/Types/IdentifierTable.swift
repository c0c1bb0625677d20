#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open-addressed hash table from a catalogued identifier's UTF-8 bytes to its index in
/// `TypeCatalogue.knownIdentifiers`, made once and never freed.
///
/// Every type identifier a decoder reads is looked up here (the strict reader's, then the model
/// mapping's), so a look-up is one hash of the length and two 8-byte words, usually one probe, and
/// one `memcmp`; the memory is raw (no array, so no reference counting or bounds checks per look-up).
struct IdentifierTable: @unchecked Sendable {
    /// The table, built on first use.
    static let shared = IdentifierTable(TypeCatalogue.knownIdentifiers)

    /// Slots (a power of two, at least four times the identifiers): catalogue index + 1, 0 when empty.
    private let slots: UnsafeMutablePointer<Int32>
    private let mask: Int
    /// Each identifier's bytes (static storage) and length, by catalogue index.
    private let starts: UnsafeMutablePointer<UnsafePointer<UInt8>>
    private let counts: UnsafeMutablePointer<Int>

    /// Slots for `spellings` (same size as `slots`): catalogue index + 1, 0 when empty.
    private let spellingSlots: UnsafeMutablePointer<Int32>
    /// The address of the UTF-8 bytes of each catalogued type's `identifier` string (the string
    /// decoders hand out for a catalogued identifier), by catalogue index.
    private let spellings: UnsafeMutablePointer<UnsafeRawPointer?>

    private init(_ identifiers: [StaticString]) {
        var size = 64
        while size < identifiers.count * 4 { size *= 2 }
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        starts = .allocate(capacity: max(identifiers.count, 1))
        counts = .allocate(capacity: max(identifiers.count, 1))
        spellingSlots = .allocate(capacity: size)
        spellingSlots.initialize(repeating: 0, count: size)
        spellings = .allocate(capacity: max(identifiers.count, 1))
        spellings.initialize(repeating: nil, count: max(identifiers.count, 1))
        for (index, identifier) in identifiers.enumerated() {
            starts[index] = identifier.utf8Start
            counts[index] = identifier.utf8CodeUnitCount
            let bytes = UnsafeBufferPointer(start: identifier.utf8Start, count: identifier.utf8CodeUnitCount)
            // The first of equal spellings wins, as a scan in catalogue order would find it.
            guard self.index(of: bytes) < 0 else { continue }
            var slot = Self.hash(bytes) & mask
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    /// Records where the bytes of `types`' identifier strings live, so `index(ofSpelling:)` finds
    /// them by address. Called once, by `TypeCatalogue.knownTypes`'s initializer, before any
    /// look-up by address (which reaches this table only through `knownTypes`).
    func recordSpellings(of types: [ObjectType]) {
        for (index, type) in types.enumerated() {
            // Only strings whose bytes stay put (literals, immortal) are worth an entry; the
            // address of any other string's bytes is not stable.
            guard let address = Self.stableAddress(of: type.identifier) else { continue }
            spellings[index] = address
            var slot = Self.hash(address) & mask
            while spellingSlots[slot] != 0 { slot = (slot &+ 1) & mask }
            spellingSlots[slot] = Int32(index + 1)
        }
    }

    /// The catalogue index whose recorded identifier string has its bytes at `address` with
    /// `count` bytes, or -1 (then look the bytes up with `index(of:)`).
    @inline(__always)
    func index(ofSpelling address: UnsafeRawPointer, count: Int) -> Int {
        var slot = Self.hash(address) & mask
        while true {
            let entry = Int(spellingSlots[slot])
            if entry == 0 { return -1 }
            let index = entry &- 1
            if spellings[index] == address, counts[index] == count { return index }
            slot = (slot &+ 1) & mask
        }
    }

    /// Where the UTF-8 bytes of `string` are, when they are a literal's (immortal, never moved).
    static func stableAddress(of string: String) -> UnsafeRawPointer? {
        guard string.utf8.count > 15 else { return nil }  // small strings live inline, copied around
        return string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    @inline(__always)
    private static func hash(_ address: UnsafeRawPointer) -> Int {
        let bits = UInt64(UInt(bitPattern: address))
        return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 40)
    }

    /// The catalogue index whose identifier is exactly `bytes`, or -1.
    @inline(__always)
    func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var slot = Self.hash(bytes) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return -1 }
            let index = entry &- 1
            if counts[index] == count, count == 0 || memcmp(starts[index], bytes.baseAddress.unsafelyUnwrapped, count) == 0 {
                return index
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// The length mixed with the last 8 bytes and the 8 from offset 24 (past the shared
    /// `HK…TypeIdentifier` prefixes) or, for shorter identifiers, every byte.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count >= 8 {
            let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
            let tail = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            let middle = base.loadUnaligned(fromByteOffset: min(24, count &- 8), as: UInt64.self)
            hash ^= tail &* 0xFF51_AFD7_ED55_8CCD
            hash = (hash ^ (hash >> 31)) &* 0xC4CE_B9FE_1A85_EC53
            hash ^= middle
        } else {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: hash >> 32)
    }
}
