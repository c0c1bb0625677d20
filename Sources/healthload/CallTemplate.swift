import BrokerWire
import HealthBrokerClient

/// One operation's call, mapped once to its .proto message, then stamped with a call id per send
/// and encoded by the generated code: the same bytes `WireCodec.append` writes for the call.
///
/// For saves, each templated sample's uuid ends in 12 hex digits that are rewritten with a per-call
/// counter, so every save writes new samples.
struct CallTemplate: Sendable {
    /// Hex digits of the per-call counter at the end of each templated uuid.
    static let counterDigits = 12
    /// Lower-case hex digits by value.
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The operation this template sends.
    let operation: LoadOperation
    /// The call without its id (and, for a stamped save, without its samples).
    private let call: Proto.Call
    /// A stamped save's samples, their uuids rewritten per call.
    private var samples: [Proto.Sample]
    /// Each stamped sample's index in `samples` and its uuid before the counter digits.
    private let stamped: [(index: Int, prefix: String)]

    /// A template of the generated `request` (with `timeoutMicros` and `initialCredit`). Each of
    /// `uuids` must be the uuid of one of the request's samples and end in `counterDigits` hex
    /// digits, which `appendFrame` overwrites.
    init(operation: LoadOperation, request: Proto.Call.Request, timeoutMicros: Int64 = 0, initialCredit: UInt32 = 0, uuids: [String] = []) throws(LoadFailure) {
        self.operation = operation
        var call = Proto.Call()
        call.timeoutMicros = timeoutMicros
        call.initialCredit = initialCredit
        call.request = request
        var samples: [Proto.Sample] = []
        var stamped: [(index: Int, prefix: String)] = []
        if !uuids.isEmpty {
            guard case .save(let save)? = call.request else {
                throw LoadFailure("only a save's uuids can be stamped, not \(operation.methodName)'s")
            }
            samples = save.samples
            call.request = nil
            for uuid in uuids {
                guard uuid.utf8.count >= Self.counterDigits,
                      let index = samples.indices.first(where: { index in
                          samples[index].uuid == uuid && !stamped.contains { $0.index == index }
                      })
                else {
                    throw LoadFailure("uuid \(uuid) not found in the \(operation.methodName) call")
                }
                stamped.append((index, String(uuid.dropLast(Self.counterDigits))))
            }
        }
        self.call = call
        self.samples = samples
        self.stamped = stamped
    }

    /// Appends the whole frame for call `callID` to `buffer` (stamping `counter` into the uuids
    /// first, if any); returns the frame's size in bytes.
    @inline(__always)
    mutating func appendFrame(callID: UInt64, counter: UInt64, to buffer: inout [UInt8]) -> Int {
        var call = call
        call.callID = callID
        if !stamped.isEmpty {
            stamp(counter)
            var save = Proto.SaveRequest()
            save.samples = samples
            call.request = .save(save)
        }
        var frame = Proto.ClientFrame()
        frame.kind = .call(call)
        let start = buffer.count
        frame.appendFrame(to: &buffer)
        return buffer.count - start
    }

    /// Writes `counter` as 12 lower-case hex digits at the end of every stamped uuid.
    private mutating func stamp(_ counter: UInt64) {
        let digits = Self.hexDigits
        let suffix = String(unsafeUninitializedCapacity: Self.counterDigits) { bytes in
            var rest = counter
            for position in stride(from: Self.counterDigits - 1, through: 0, by: -1) {
                bytes[position] = digits[Int(rest & 0xf)]
                rest >>= 4
            }
            return Self.counterDigits
        }
        for (index, prefix) in stamped { samples[index].uuid = prefix + suffix }
    }
}
