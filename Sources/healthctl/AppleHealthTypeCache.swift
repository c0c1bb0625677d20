import BrokerModel

/// The record types and units an import has met, looked up by the bytes the export spells them with:
/// an export has a few dozen types and units but millions of records, so each is turned into a
/// String, a catalogue entry and a unit converter once.
struct AppleHealthTypeCache {
    /// One type identifier as written.
    struct Entry {
        /// The identifier's bytes.
        let text: [UInt8]
        /// The identifier.
        let identifier: String
        /// Its catalogue entry when it is a quantity or category type the broker knows; nil otherwise.
        let descriptor: TypeDescriptor?
        /// Records of this type counted as unknown so far.
        var unknown = 0
        /// Units met with this type: their bytes, and the converter to the canonical unit (nil when the
        /// unit is not one of the type's: such records go to the broker's rules as written, for the message).
        var units: [(text: [UInt8], unit: String, converter: UnitConverter?)] = []
    }

    /// The types met, in order.
    var entries: [Entry] = []
    private var last = -1

    /// The index in `entries` of the type spelled `text`.
    mutating func index(of text: UnsafeBufferPointer<UInt8>) -> Int {
        // Apple's export groups records by type: the one before is the likely hit.
        if last >= 0, entries[last].text.equals(text) { return last }
        for index in entries.indices where entries[index].text.equals(text) {
            last = index
            return index
        }
        let identifier = String(decoding: text, as: UTF8.self)
        var descriptor = TypeCatalogue.descriptor(for: ObjectType(identifier))
        if let known = descriptor, known.kind != .quantity, known.kind != .category { descriptor = nil }
        entries.append(Entry(text: Array(text), identifier: identifier, descriptor: descriptor))
        last = entries.count - 1
        return last
    }

    /// `number` of the record `text` of type `typeIndex` (a quantity type), in the type's canonical
    /// unit when its unit converts, else as written.
    mutating func canonical(_ number: Double, unit text: AppleHealthRecordText, typeIndex: Int) -> Quantity {
        let descriptor = entries[typeIndex].descriptor!
        if text.unit.isEmpty { return Quantity(number, descriptor.canonicalUnit) }
        let unitIndex = text.withBytes(text.unit) { bytes in
            if let found = entries[typeIndex].units.firstIndex(where: { $0.text.equals(bytes) }) { return found }
            let unit = String(decoding: bytes, as: UTF8.self)
            entries[typeIndex].units.append((Array(bytes), unit, try? UnitConverter(unit, for: descriptor)))
            return entries[typeIndex].units.count - 1
        }
        let entry = entries[typeIndex].units[unitIndex]
        guard let converter = entry.converter, number.isFinite else { return Quantity(number, entry.unit) }
        return Quantity(converter.toCanonical(number), descriptor.canonicalUnit)
    }
}
