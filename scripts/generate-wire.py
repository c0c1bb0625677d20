#!/usr/bin/env python3
"""Generates the Swift wire code of proto/healthbroker.proto: one source of truth for the wire.

    scripts/generate-wire.py DESCRIPTOR_SET OUT_DIR [SERVER_OUT_DIR]

DESCRIPTOR_SET is `protoc-c --descriptor_set_out --include_source_info` of the .proto (the same
protoc-c that writes the C code; scripts/generate-proto.sh runs both and checks both for freshness).
OUT_DIR receives, for every message, enum and service of the .proto:

  Proto.pb.swift            the Swift message structs (namespace `Proto`), enums and oneofs
  Proto+Encoding.pb.swift   sizes and writes them, byte for byte as protobuf-c packs them
  Proto+Decoding.pb.swift   reads them strictly: nil for anything protobuf-c might read differently
  Proto+Unpacked.pb.swift   copies protobuf-c's unpacked C structs into them (the codec of record)
  ProtoMethod.pb.swift      the method table of the services: names, socket, streaming, oneof cases
  Proto+JSON.pb.swift       protobuf's canonical JSON mapping of every message, both ways
  ProtoDescriptors.pb.swift the describe table: every message's fields, enum's values, method's types

SERVER_OUT_DIR (Sources/BrokerServer/Generated) receives the server's side of the services:

  CallHandler.pb.swift      a protocol with one handler per rpc and the dispatch switch calling it

The runtime they call (ProtoReader, ProtoWriter, ProtoSizes, ProtoMessage, ProtoJSON and the
descriptor types) is hand-written, in
Sources/BrokerWire/Runtime. Nothing here needs the protobuf Python package: the descriptor set is
read with the few lines of protobuf decoding below.
"""

import os
import re
import sys

# ---- Reading the descriptor set ----------------------------------------------------------------


def read_varint(data, pos):
    result = 0
    shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def fields_of(data):
    """Yields (number, value) for every field of one message; value is int or bytes."""
    pos = 0
    while pos < len(data):
        key, pos = read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = read_varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = read_varint(data, pos)
            value, pos = data[pos:pos + length], pos + length
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise ValueError("unsupported wire type %d" % wire)
        yield number, value


def message(data, schema):
    """Decodes `data` by `schema`: {number: (name, kind, repeated)} with kind 'str', 'int' or a schema."""
    out = {name: ([] if repeated else None) for name, _, repeated in schema.values()}
    for number, value in fields_of(data):
        if number not in schema:
            continue
        name, kind, repeated = schema[number]
        if kind == "str":
            value = value.decode("utf-8")
        elif kind == "ints":  # packed int32s
            ints, pos = [], 0
            while pos < len(value):
                v, pos = read_varint(value, pos)
                ints.append(v)
            value = ints
        elif isinstance(kind, dict):
            value = message(value, kind)
        if repeated:
            out[name].append(value)
        else:
            out[name] = value
    return out


FIELD_OPTIONS = {2: ("packed", "int", False)}
FIELD = {1: ("name", "str", False), 10: ("json_name", "str", False), 3: ("number", "int", False), 4: ("label", "int", False),
         5: ("type", "int", False), 6: ("type_name", "str", False), 8: ("options", FIELD_OPTIONS, False),
         9: ("oneof_index", "int", False), 17: ("proto3_optional", "int", False)}
ONEOF = {1: ("name", "str", False)}
ENUM_VALUE = {1: ("name", "str", False), 2: ("number", "int", False)}
ENUM = {1: ("name", "str", False), 2: ("value", ENUM_VALUE, True)}
MESSAGE = {1: ("name", "str", False), 2: ("field", FIELD, True), 4: ("enum_type", ENUM, True),
           8: ("oneof_decl", ONEOF, True)}
MESSAGE[3] = ("nested_type", MESSAGE, True)
METHOD = {1: ("name", "str", False), 2: ("input_type", "str", False), 3: ("output_type", "str", False),
          5: ("client_streaming", "int", False), 6: ("server_streaming", "int", False)}
SERVICE = {1: ("name", "str", False), 2: ("method", METHOD, True)}
LOCATION = {1: ("path", "ints", False), 3: ("leading", "str", False), 4: ("trailing", "str", False)}
SOURCE_INFO = {1: ("location", LOCATION, True)}
FILE = {1: ("name", "str", False), 2: ("package", "str", False), 4: ("message_type", MESSAGE, True),
        5: ("enum_type", ENUM, True), 6: ("service", SERVICE, True), 9: ("source_code_info", SOURCE_INFO, False),
        12: ("syntax", "str", False)}
FILE_SET = {1: ("file", FILE, True)}

# FieldDescriptorProto.Type
DOUBLE, FLOAT, INT64, UINT64, INT32, FIXED64, FIXED32, BOOL, STRING, GROUP, MESSAGE_T, BYTES, UINT32, ENUM_T, \
    SFIXED32, SFIXED64, SINT32, SINT64 = range(1, 19)
REPEATED = 3

# String fields by these names carry HealthKit type identifiers: the strict reader takes them with
# ProtoReader.typeIdentifier(), which hands back the catalogue's own string for a known identifier
# instead of allocating one per field (EASD, AuthorizationStatus and every sample name types).
TYPE_IDENTIFIER_FIELDS = {"type", "types", "share_types", "read_types"}

# The hot requests whose identifier fields keep what the reader's look-up found: each such field is
# stored as `resolvedX: ProtoTypeIdentifier` (`[ProtoTypeIdentifier]` when repeated), the catalogue
# index of a catalogued identifier, and `x: String` (`[String]`) reads and writes it as before. The
# broker's handler takes the catalogue's type from it without a second look-up.
RESOLVED_IDENTIFIER_MESSAGES = {"AuthorizationStatusRequest", "EarliestAuthorizedSampleDateRequest"}

# Messages with a catalogued view `Proto.X.Catalogued`: every identifier field given as a catalogue
# index (its bytes are the catalogue's, its size known without a ProtoSizes), the rest as in X. A
# frame appender case whose message is one repeated field of such a message also takes the entries
# as a buffer of views (the EarliestAuthorizedSampleDate reply, written without building its array).
CATALOGUED_VIEWS = {"TypeDate"}

# Messages written from another representation of them (the broker's store rows): each, and every
# message it holds, gets a `package` protocol `Proto.XFields` of its fields read in place, and a
# writer `Proto.X.measure(fields:)` / `write(fields:)` over it, to the bytes `measure` / `write` of
# the built message give; a stream item case whose message is one repeated field of such a message
# gets a frame appender taking a buffer of rows (Query pages, written without a `Proto.Sample` per
# row). Proto+Fields.pb.swift.
ROW_VIEWS = {"Sample"}

# The messages that travel as whole frames (every call decodes or encodes one).
FRAME_MESSAGES = {"ClientFrame", "ServerFrame"}

# Which socket serves each service's methods (the broker's one place that knows it).
SERVICE_SOCKETS = {"AppService": "app", "AdminService": "admin", "DiagnosticsService": "both"}

# protoc-c appends "_" to C/C++ keywords used as field names (c_helpers.cc, kKeywordList).
C_KEYWORDS = set("""and and_eq asm auto bitand bitor bool break case catch char class compl const const_cast
continue default delete do double dynamic_cast else enum explicit extern false float for friend goto if
inline int long mutable namespace new not not_eq operator or or_eq private protected public register
reinterpret_cast return short signed sizeof static static_cast struct switch template this throw true try
typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq""".split())

SWIFT_KEYWORDS = set("""associatedtype class deinit enum extension fileprivate func import init inout internal let
open operator private precedencegroup protocol public rethrows static struct subscript typealias var break case
catch continue default defer do else fallthrough for guard if in repeat return throw switch where while Any as
await false is nil self Self super throws true try""".split())

# ---- Names -------------------------------------------------------------------------------------

ACRONYMS = {"id": "ID", "ids": "IDs", "uuid": "UUID", "uuids": "UUIDs", "us": "Micros"}


def camel(snake, upper_first=False):
    parts = snake.lower().split("_")
    out = []
    for index, part in enumerate(parts):
        if index == 0 and not upper_first:
            out.append("micros" if part == "us" else part)
        else:
            out.append(ACRONYMS.get(part, part[:1].upper() + part[1:]))
    return "".join(out)


def json_name(name):
    """protoc's ToJsonName: underscores dropped, the letter after each one capitalized."""
    out, upper = [], False
    for char in name:
        if char == "_":
            upper = True
        elif upper:
            out.append(char.upper())
            upper = False
        else:
            out.append(char)
    return "".join(out)


def swift_name(name):
    return "`%s`" % name if name in SWIFT_KEYWORDS else name


def c_field(name):
    return name + "_" if name in C_KEYWORDS else name


def c_lower(camel_name):
    """protoc-c's CamelToLower: SamplePage -> sample_page."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", camel_name).lower()


# ---- Model -------------------------------------------------------------------------------------


class Field:
    def __init__(self, raw, message):
        self.name = raw["name"]
        self.message = message
        self.number = raw["number"]
        self.type = raw["type"]
        self.repeated = raw["label"] == REPEATED
        self.type_name = (raw["type_name"] or "").split(".")[-1]
        self.oneof = raw["oneof_index"] if raw["oneof_index"] is not None and not raw["proto3_optional"] else None
        self.packed = self.repeated and self.type not in (STRING, BYTES, MESSAGE_T) and \
            (raw["options"] is None or raw["options"]["packed"] is None or raw["options"]["packed"] != 0)
        self.swift = swift_name(camel(self.name))
        self.case = swift_name(camel(self.name))
        self.c = c_field(self.name)
        self.json = raw["json_name"] or json_name(self.name)
        self.doc = None
        if raw["proto3_optional"]:
            raise SystemExit("generate-wire: proto3 optional (%s.%s) is not supported" % (message, self.name))
        if self.type in (GROUP, FLOAT, FIXED32, FIXED64, SFIXED32, SFIXED64, SINT32, SINT64):
            raise SystemExit("generate-wire: field type %d (%s.%s) is not supported" % (self.type, message, self.name))

    @property
    def resolved(self):
        """True for an identifier field stored as `ProtoTypeIdentifier` (RESOLVED_IDENTIFIER_MESSAGES)."""
        return (self.message in RESOLVED_IDENTIFIER_MESSAGES and self.name in TYPE_IDENTIFIER_FIELDS
                and self.type == STRING and self.oneof is None)

    @property
    def stored(self):
        """The stored property's name: `resolvedX` for a resolved identifier field, else the field's."""
        return "resolved" + camel(self.name, upper_first=True) if self.resolved else self.swift

    @property
    def wire_type(self):
        if self.packed:
            return 2
        if self.type == DOUBLE:
            return 1
        if self.type in (STRING, BYTES, MESSAGE_T):
            return 2
        return 0

    @property
    def key(self):
        return (self.number << 3) | self.wire_type

    def swift_type(self):
        base = {DOUBLE: "Double", INT64: "Int64", UINT64: "UInt64", INT32: "Int32", BOOL: "Bool", STRING: "String",
                BYTES: "[UInt8]", UINT32: "UInt32"}.get(self.type)
        if base is None:
            base = "Proto." + self.type_name
        return base

    def default(self):
        return {DOUBLE: "0", INT64: "0", UINT64: "0", INT32: "0", BOOL: "false", STRING: '""', BYTES: "[]",
                UINT32: "0"}.get(self.type, "Proto.%s()" % self.type_name)


class Message:
    def __init__(self, raw, index):
        self.name = raw["name"]
        self.index = index
        if raw["nested_type"] or raw["enum_type"]:
            raise SystemExit("generate-wire: nested types (in %s) are not supported" % self.name)
        self.fields = sorted((Field(f, self.name) for f in raw["field"]), key=lambda f: f.number)
        self.oneofs = [o["name"] for o in raw["oneof_decl"]]
        self.doc = None
        self.field_docs = {}
        self.c_type = None
        self.c_func = None

    def plain_fields(self):
        return [f for f in self.fields if f.oneof is None]

    def oneof_fields(self, index):
        return [f for f in self.fields if f.oneof == index]

    def oneof_swift(self, index):
        return camel(self.oneofs[index], upper_first=True)

    def oneof_property(self, index):
        return swift_name(camel(self.oneofs[index]))


class Enum:
    def __init__(self, raw, index):
        self.name = raw["name"]
        self.index = index
        self.values = [(v["name"], v["number"]) for v in raw["value"]]
        self.doc = None
        self.value_docs = {}

    def case_name(self, value_name):
        prefix = re.sub(r"(?<!^)([A-Z])", r"_\1", self.name).upper() + "_"
        short = value_name[len(prefix):] if value_name.startswith(prefix) else value_name
        return swift_name(camel(short))


def comment_lines(text):
    if not text:
        return []
    lines = [line.strip() for line in text.strip("\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def doc(lines, indent, fallback):
    lines = lines or []
    text = lines if any(lines) else [fallback]
    return "".join("%s/// %s\n" % (indent, line) if line else "%s///\n" % indent for line in text)


# ---- Emitting ----------------------------------------------------------------------------------

HEADER = """// Generated by scripts/generate-wire.py from proto/healthbroker.proto. Do not edit by hand:
// change the .proto and run scripts/generate-proto.sh (`--check` tells whether this file is fresh).
"""


# A oneof case whose message is larger than this (in estimated Swift bytes) is `indirect`: every copy
# of a frame copies its oneof inline, so a few large, rarely sent requests would otherwise make every
# small, hot one (Ping, AuthorizationStatus, EASD) pay to copy their size. A message that holds a
# oneof itself (the envelopes Call and StreamItem) is never boxed: that would allocate for every frame.
INLINE_CASE_BYTES = 32
messages_by_name = {}


# A oneof with more cases than this (the method oneofs Call.request and ServerFrame.response) boxes
# every message case larger than SMALL_CASE_BYTES that is not an envelope: the hot requests and
# replies (Ping, AuthorizationStatus, RequestStatus, EASD, Save) fit inline and cost no allocation,
# and the enum stays small to copy (measured with callgrind per Ping: boxing every case cost an
# allocation and a free per frame; boxing none made each copy of the enum move its largest case).
BOX_ALL_CASES_ABOVE = 8
SMALL_CASE_BYTES = 16


def is_boxed(field, oneof_size=0):
    """Whether a oneof case of `field`'s message is `indirect` (see INLINE_CASE_BYTES)."""
    if field.type != MESSAGE_T:
        return False
    message = messages_by_name[field.type_name]
    if message.oneofs:
        return False
    limit = SMALL_CASE_BYTES if oneof_size > BOX_ALL_CASES_ABOVE else INLINE_CASE_BYTES
    return swift_size(message) > limit


def swift_size(message, _cache={}):
    """The Swift struct's size, estimated: fields in order, each aligned to its own size."""
    if message.name in _cache:
        return _cache[message.name]
    size = 0

    def add(field_size, align):
        nonlocal size
        size = (size + align - 1) // align * align + field_size

    for field in message.plain_fields():
        if field.repeated or field.type == BYTES:
            add(8, 8)
        elif field.type == STRING:
            add(16, 8)
        elif field.type == MESSAGE_T:
            add(swift_size(messages_by_name[field.type_name]) + 1, 8)
        elif field.type in (DOUBLE, INT64, UINT64):
            add(8, 8)
        elif field.type == BOOL:
            add(1, 1)
        else:
            add(4, 4)
    for index in range(len(message.oneofs)):
        payloads = []
        for field in message.oneof_fields(index):
            if field.type == MESSAGE_T:
                inner = swift_size(messages_by_name[field.type_name])
                payloads.append(8 if is_boxed(field, len(message.oneof_fields(index))) else inner)
            else:
                payloads.append(16 if field.type == STRING else 8)
        add(max(payloads) + 1, 8)
    if message.oneofs:
        add(8, 8)
    _cache[message.name] = size
    return size


def emit_messages(messages, enums):
    out = [HEADER, "// The messages, enums and oneofs of the .proto as Swift values.\n\n"]
    out.append("/// The messages and enums of proto/healthbroker.proto, as generated Swift values.\n")
    out.append("public enum Proto {}\n")
    for enum in enums:
        out.append("\n")
        out.append(doc(enum.doc, "", "The .proto enum %s." % enum.name))
        out.append("extension Proto {\n")
        out.append("    public struct %s: RawRepresentable, Hashable, Sendable {\n" % enum.name)
        out.append("        /// The number on the wire; numbers this build does not name are kept as they are.\n")
        out.append("        public var rawValue: Int32\n")
        out.append("        /// The value numbered `rawValue`.\n")
        out.append("        public init(rawValue: Int32) { self.rawValue = rawValue }\n")
        out.append("        /// The value numbered 0, the default.\n")
        out.append("        public init() { self.rawValue = 0 }\n")
        for name, number in enum.values:
            out.append(doc(enum.value_docs.get(name, []), "        ", "%s = %d." % (name, number)))
            out.append("        public static let %s = %s(rawValue: %d)\n" % (enum.case_name(name), enum.name, number))
        out.append("    }\n}\n")
    for message in messages:
        out.append("\n")
        out.append(doc(message.doc, "", "The .proto message %s." % message.name))
        out.append("extension Proto {\n")
        out.append("    public struct %s: Hashable, Sendable {\n" % message.name)
        for field in message.plain_fields():
            t = field.swift_type()
            if field.repeated:
                decl, value = "[%s]" % t, "[]"
            elif field.type == MESSAGE_T:
                decl, value = "%s?" % t, "nil"
            else:
                decl, value = t, field.default()
            out.append(doc(message.field_docs.get(field.name, []), "        ", "%s = %d." % (field.name, field.number)))
            if field.resolved:
                element = "ProtoTypeIdentifier"
                stored_decl = "[%s]" % element if field.repeated else element
                stored_value = "[]" if field.repeated else "ProtoTypeIdentifier()"
                if field.repeated:
                    get = "%s.map(\\.spelling)" % field.stored
                    put = "%s = newValue.map { ProtoTypeIdentifier($0) }" % field.stored
                else:
                    get = "%s.spelling" % field.stored
                    put = "%s = ProtoTypeIdentifier(newValue)" % field.stored
                out.append("        public var %s: %s {\n            get { %s }\n            set { %s }\n        }\n"
                           % (field.swift, decl, get, put))
                out.append("        /// %s = %d as read: the catalogue index of a catalogued identifier, found once.\n"
                           % (field.name, field.number))
                out.append("        public var %s: %s = %s\n" % (field.stored, stored_decl, stored_value))
            else:
                out.append("        public var %s: %s = %s\n" % (field.swift, decl, value))
        for index in range(len(message.oneofs)):
            out.append(doc([], "        ", "The oneof %s: one case or none." % message.oneofs[index]))
            out.append("        public var %s: %s? = nil\n" % (message.oneof_property(index), message.oneof_swift(index)))
        if message.oneofs:
            # A oneof case a newer peer added arrives as an unknown field: a reader may want to name it.
            out.append("        /// Field numbers protobuf-c read that this build does not know (a newer peer's fields, such\n")
            out.append("        /// as a oneof case added later). Decoding only: they are never encoded, and the strict\n")
            out.append("        /// reader leaves such bytes to protobuf-c.\n")
            out.append("        /// nil when there were none (an empty array would cost a retain and a release per message).\n")
            out.append("        public var unknownFieldNumbers: [UInt32]? = nil\n")
        out.append("        /// An empty message: every field at its default.\n")
        out.append("        public init() {}\n")
        for index in range(len(message.oneofs)):
            out.append("\n")
            out.append(doc([], "        ", "The cases of the oneof %s." % message.oneofs[index]))
            out.append("        public enum %s: Hashable, Sendable {\n" % message.oneof_swift(index))
            for field in message.oneof_fields(index):
                out.append(doc(message.field_docs.get(field.name, []), "            ", "%s = %d." % (field.name, field.number)))
                boxed = is_boxed(field, len(message.oneof_fields(index)))
                out.append("            %scase %s(%s)\n" % ("indirect " if boxed else "", field.case, field.swift_type()))
            out.append("        }\n")
        out.append("    }\n}\n")
    return "".join(out)


def scalar_size(field, value):
    t = field.type
    if t == DOUBLE:
        return "8"
    if t == BOOL:
        return "1"
    if t in (INT64,):
        return "ProtoWriter.varintSize(UInt64(bitPattern: %s))" % value
    if t in (INT32, ENUM_T):
        raw = value if t == INT32 else "%s.rawValue" % value
        return "ProtoWriter.varintSize(UInt64(bitPattern: Int64(%s)))" % raw
    if t in (UINT64, UINT32):
        return "ProtoWriter.varintSize(UInt64(%s))" % value
    raise AssertionError(t)


def write_scalar(field, value):
    t = field.type
    if t == DOUBLE:
        return "writer.fixed64(%s.bitPattern)" % value
    if t == BOOL:
        return "writer.byte(%s ? 1 : 0)" % value
    if t == INT64:
        return "writer.varint(UInt64(bitPattern: %s))" % value
    if t == INT32:
        return "writer.varint(UInt64(bitPattern: Int64(%s)))" % value
    if t == ENUM_T:
        return "writer.varint(UInt64(bitPattern: Int64(%s.rawValue)))" % value
    if t in (UINT64, UINT32):
        return "writer.varint(UInt64(%s))" % value
    raise AssertionError(t)


def key_bytes(key):
    out = []
    while True:
        if key < 0x80:
            out.append(key)
            return out
        out.append((key & 0x7F) | 0x80)
        key >>= 7


def write_key(field):
    return "".join("writer.byte(0x%02X); " % b for b in key_bytes(field.key)).rstrip("; ")


def zero_test(field, value):
    """The condition under which protobuf-c packs a proto3 singular field (field_is_zeroish)."""
    t = field.type
    if t == STRING:
        return "ProtoWriter.cStringCount(%s) != 0" % value
    if t == BYTES:
        return "!%s.isEmpty" % value
    if t == BOOL:
        return value
    if t == DOUBLE:
        return "%s != 0" % value
    if t == ENUM_T:
        return "%s.rawValue != 0" % value
    return "%s != 0" % value


def is_leaf(message):
    """True when `message` holds only numbers and bytes: measuring it again when it is written costs
    less than a slot in ProtoSizes (strings would be counted again, messages measured again)."""
    return all(f.type not in (MESSAGE_T, STRING) for f in message.fields)


def size_lines(field, value, indent, in_oneof=False):
    """Lines adding the size of one present value (key included) to `size`."""
    k = len(key_bytes(field.key))
    t = field.type
    if t == STRING:
        # Counted once: the count is kept in `sizes` for the writer (a C length is a memchr).
        return ["%sdo { let count = ProtoWriter.cStringCount(%s); sizes.push(count); size += %d + ProtoWriter.varintSize(count) + count }"
                % (indent, value, k)]
    if t == BYTES:
        return ["%ssize += %d + ProtoWriter.varintSize(%s.count) + %s.count" % (indent, k, value, value)]
    if t == MESSAGE_T and is_leaf(messages_by_name[field.type_name]):
        # A message without nested messages is measured again when written: cheaper than a slot.
        return ["%sdo { let count = %s.packedSize; size += %d + ProtoWriter.varintSize(count) + count }"
                % (indent, value, k)]
    if t == MESSAGE_T:
        return ["%sdo {" % indent,
                "%s    let slot = sizes.reserve()" % indent,
                "%s    let count = %s.measure(&sizes)" % (indent, value),
                "%s    sizes[slot] = count" % indent,
                "%s    size += %d + ProtoWriter.varintSize(count) + count" % (indent, k),
                "%s}" % indent]
    return ["%ssize += %d + %s" % (indent, k, scalar_size(field, value))]


def write_lines(field, value, indent):
    t = field.type
    key = write_key(field)
    if t == STRING:
        return ["%s%s; writer.cString(%s, count: sizes.next())" % (indent, key, value)]
    if t == BYTES:
        return ["%s%s; writer.varint(UInt64(%s.count)); writer.bytes(%s)" % (indent, key, value, value)]
    if t == MESSAGE_T and is_leaf(messages_by_name[field.type_name]):
        return ["%s%s; writer.varint(UInt64(%s.packedSize)); %s.writeFields(&writer)" % (indent, key, value, value)]
    if t == MESSAGE_T:
        return ["%s%s; writer.varint(UInt64(sizes.next())); %s.write(&writer, &sizes)" % (indent, key, value)]
    return ["%s%s; %s" % (indent, key, write_scalar(field, value))]


def borrowing_loop(value, indent, body):
    """`body` for each element of the array `value`, read in place as `elements[index]`: a for-in
    loop copies each element (retaining every string and array in it, then releasing them), which
    for a page of samples cost more than measuring and writing them."""
    return (["%s%s.withUnsafeBufferPointer { elements in" % (indent, value),
             "%s    for index in elements.indices {" % indent] + body
            + ["%s    }" % indent, "%s}" % indent])


def stored_value(value, field):
    """`value` (an expression ending in the field's property) naming the stored property instead."""
    assert value.endswith(field.swift), value
    return value[:len(value) - len(field.swift)] + field.stored


def plain_measure_lines(field, value, indent, binding="value"):
    """Lines adding a non-oneof field's size to `size` when protobuf-c would pack it."""
    inner = indent + "    "
    if field.repeated:
        if field.packed:
            raise SystemExit("generate-wire: packed repeated fields are not supported (%s)" % field.name)
        if field.resolved:
            return (["%sfor element in %s {" % (indent, stored_value(value, field))]
                    + size_lines(field, "element.spelling", inner) + ["%s}" % indent])
        if field.type == MESSAGE_T:
            return borrowing_loop(value, indent, size_lines(field, "elements[index]", inner + "    "))
        return ["%sfor element in %s {" % (indent, value)] + size_lines(field, "element", inner) + ["%s}" % indent]
    if field.type == MESSAGE_T:
        return (["%sif let %s = %s {" % (indent, binding, value)] + size_lines(field, binding, inner)
                + ["%s}" % indent])
    if field.type == STRING:
        return ["%sdo {" % indent,
                "%slet count = ProtoWriter.cStringCount(%s)" % (inner, value),
                "%ssizes.push(count)" % inner,
                "%sif count != 0 { size += %d + ProtoWriter.varintSize(count) + count }" % (inner, len(key_bytes(field.key))),
                "%s}" % indent]
    return ["%sif %s {" % (indent, zero_test(field, value))] + size_lines(field, value, inner) + ["%s}" % indent]


def plain_write_lines(field, value, indent, binding="value"):
    """Lines writing a non-oneof field when protobuf-c would pack it."""
    inner = indent + "    "
    if field.repeated:
        if field.resolved:
            return (["%sfor element in %s {" % (indent, stored_value(value, field))]
                    + write_lines(field, "element.spelling", inner) + ["%s}" % indent])
        if field.type == MESSAGE_T:
            return borrowing_loop(value, indent, write_lines(field, "elements[index]", inner + "    "))
        return ["%sfor element in %s {" % (indent, value)] + write_lines(field, "element", inner) + ["%s}" % indent]
    if field.type == MESSAGE_T:
        return (["%sif let %s = %s {" % (indent, binding, value)] + write_lines(field, binding, inner)
                + ["%s}" % indent])
    if field.type == STRING:
        return ["%sdo {" % indent,
                "%slet count = sizes.next()" % inner,
                "%sif count != 0 { %s; writer.cString(%s, count: count) }" % (inner, write_key(field), value),
                "%s}" % indent]
    return ["%sif %s {" % (indent, zero_test(field, value))] + write_lines(field, value, inner) + ["%s}" % indent]


def message_body_lines(message, plain_lines, case_lines):
    """The lines of `measure` or `write` for every field of `message` in number order (the order
    protobuf-c packs in; a oneof's members are contiguous, so the oneof goes where its first is)."""
    body = []
    for field in message.fields:
        if field.oneof is None:
            body.extend(plain_lines(field, "self.%s" % field.swift, "        "))
        elif field is message.oneof_fields(field.oneof)[0]:
            body.append("        switch %s {" % message.oneof_property(field.oneof))
            for member in message.oneof_fields(field.oneof):
                body.append("        case .%s(let value):" % member.case)
                body.extend(case_lines(member, "value", "            "))
            body.append("        case nil: break")
            body.append("        }")
    return body


def emit_encoding(messages):
    out = [HEADER, "// Sizes and writes every message exactly as protobuf-c 1.4 packs it: fields in field-number\n"
           "// order; a singular proto3 field left out when zero (a double equal to 0, -0.0 included), an empty\n"
           "// string or empty bytes; a set message or oneof case always written; every element of a repeated\n"
           "// field written; a string cut at its first NUL, as a C string is.\n"]
    for message in messages:
        out.append("\nextension Proto.%s: ProtoMessage {\n" % message.name)
        if is_leaf(message):
            out.append(emit_leaf_members(message))
        body = message_body_lines(message, plain_measure_lines, size_lines)
        out.append("    /// The packed size; keeps in `sizes` the size of every nested message and the byte count of\n"
                   "    /// every string, in write order.\n")
        out.append("    public func measure(_ sizes: inout ProtoSizes) -> Int {\n")
        if is_leaf(message):
            out.append("        packedSize\n")
        elif body:
            out.append("        var size = 0\n")
            out.append("\n".join(body) + "\n")
            out.append("        return size\n")
        else:
            out.append("        0\n")
        out.append("    }\n\n")
        body = message_body_lines(message, plain_write_lines, write_lines)
        out.append("    /// Writes the fields, taking nested sizes and string counts from `sizes` in the order `measure`\n"
                   "    /// kept them.\n")
        out.append("    public func write(_ writer: inout ProtoWriter, _ sizes: inout ProtoSizes) {\n")
        if is_leaf(message):
            out.append("        writeFields(&writer)\n")
        else:
            out.append("\n".join(body) + ("\n" if body else ""))
        out.append("    }\n")
        if message.name in FRAME_MESSAGES:
            out.append(emit_case_appenders(message))
        out.append("}\n")
        if message.name in CATALOGUED_VIEWS:
            out.append(emit_catalogued_view(message))
    return "".join(out)


def is_catalogued_identifier(field):
    return field.type == STRING and field.name in TYPE_IDENTIFIER_FIELDS and not field.repeated and field.oneof is None


def emit_catalogued_view(message):
    """`Proto.X.Catalogued`: X with each identifier field given as a catalogue index. Its bytes are
    the catalogue's identifier (never empty, no NUL: always packed, its length known), so the view
    is a leaf: sized and written without a ProtoSizes, to the bytes X with that identifier packs."""
    for field in message.fields:
        if field.oneof is not None or field.repeated or field.type == MESSAGE_T or \
                (field.type == STRING and not is_catalogued_identifier(field)):
            raise SystemExit("generate-wire: %s cannot have a catalogued view (%s)" % (message.name, field.name))
    out = ["\nextension Proto.%s {\n" % message.name]
    out.append("    /// %s with its type identifier fields given as catalogue indexes (`TypeCatalogue`): sized\n"
               "    /// and written without a `ProtoSizes`, to the bytes of `message`.\n" % message.name)
    out.append("    ///\n    /// Sendable: the spellings it holds point into the catalogue's static storage, never freed.\n")
    out.append("    public struct Catalogued: @unchecked Sendable {\n")
    params = []
    for field in message.fields:
        if is_catalogued_identifier(field):
            out.append("        /// %s = %d: the catalogue index of a catalogued identifier.\n" % (field.name, field.number))
            out.append("        public let %s: Int\n" % field.swift)
            out.append("        /// The catalogue's bytes of `%s` (static storage), found once when the view is made.\n"
                       % field.swift.strip("`"))
            out.append("        public let %sSpelling: UnsafeBufferPointer<UInt8>\n" % field.swift.strip("`"))
            params.append((field.swift, "Int"))
        else:
            out.append("        /// %s = %d.\n" % (field.name, field.number))
            out.append("        public var %s: %s\n" % (field.swift, field.swift_type()))
            params.append((field.swift, field.swift_type()))
    out.append("\n        /// The view of the fields given.\n")
    out.append("        @inline(__always)\n")
    out.append("        public init(%s) {\n" % ", ".join("%s: %s" % (n.strip("`"), t) for n, t in params))
    for name, t in params:
        out.append("            self.%s = %s\n" % (name, name))
        field = [f for f in message.fields if f.swift == name][0]
        if is_catalogued_identifier(field):
            out.append("            self.%sSpelling = ProtoWriter.catalogueSpelling(%s)\n" % (name.strip("`"), name))
    out.append("        }\n\n")
    measure, write = [], []
    for field in message.fields:
        value = "self.%s" % field.swift
        if is_catalogued_identifier(field):
            k = len(key_bytes(field.key))
            measure.append("            do { let count = %sSpelling.count; size += %d + ProtoWriter.varintSize(count) + count }"
                           % (value, k))
            write.append("            %s; writer.spelledString(%sSpelling)" % (write_key(field), value))
        else:
            measure.extend(plain_measure_lines(field, value, "            "))
            write.extend(plain_write_lines(field, value, "            "))
    out.append("        /// The packed size.\n        @inline(__always)\n")
    out.append("        public var packedSize: Int {\n            var size = 0\n")
    out.append("\n".join(measure) + "\n")
    out.append("            return size\n        }\n\n")
    out.append("        /// Writes the fields, as `message.write` would.\n        @inline(__always)\n")
    out.append("        public func writeFields(_ writer: inout ProtoWriter) {\n")
    out.append("\n".join(write) + "\n        }\n\n")
    out.append("        /// The message this view writes.\n")
    out.append("        public var message: Proto.%s {\n            var message = Proto.%s()\n" % (message.name, message.name))
    for field in message.fields:
        if is_catalogued_identifier(field):
            out.append("            message.%s = ProtoTypeIdentifier(catalogueIndex: %s).spelling\n"
                       % (field.swift, field.swift))
        else:
            out.append("            message.%s = %s\n" % (field.swift, field.swift))
    out.append("            return message\n        }\n    }\n}\n")
    return "".join(out)


def catalogued_list_field(case):
    """The one repeated field of `case`'s message when it holds a message with a catalogued view."""
    if case is None or case.type != MESSAGE_T:
        return None
    fields = messages_by_name[case.type_name].fields
    if len(fields) == 1 and fields[0].repeated and fields[0].type == MESSAGE_T and fields[0].type_name in CATALOGUED_VIEWS:
        return fields[0]
    return None


def emit_leaf_members(message):
    """For a leaf message (numbers and bytes only, nothing kept in ProtoSizes): its size and its
    fields' writer without a ProtoSizes, inlined where a frame or an enclosing message writes it."""
    out = []
    body = message_body_lines(message, plain_measure_lines, size_lines)
    out.append("    /// The packed size (a leaf message keeps nothing in `ProtoSizes`).\n")
    out.append("    @inline(__always)\n")
    if body:
        out.append("    public var packedSize: Int {\n        var size = 0\n")
        out.append("\n".join(body) + "\n")
        out.append("        return size\n    }\n\n")
    else:
        out.append("    public var packedSize: Int { 0 }\n\n")
    body = message_body_lines(message, plain_write_lines, write_lines)
    out.append("    /// Writes the fields (a leaf message needs no `ProtoSizes`).\n")
    out.append("    @inline(__always)\n")
    out.append("    public func writeFields(_ writer: inout ProtoWriter) {\n")
    out.append("\n".join(body) + ("\n" if body else ""))
    out.append("    }\n\n")
    return "".join(out)


def needs_sizes(field):
    """True when sizing `field` keeps entries in ProtoSizes (strings, non-leaf messages)."""
    if field.type == STRING:
        return True
    return field.type == MESSAGE_T and not is_leaf(messages_by_name[field.type_name])


def emit_case_appenders(message):
    """For a frame message with one oneof: a static appender per oneof case, writing the frame with
    its plain fields and that case straight into the buffer, as appendFrame of the built message
    would (no oneof enum is built: replies go out without one)."""
    if len(message.oneofs) != 1:
        return ""
    out = []
    plain = message.plain_fields()
    for case in message.oneof_fields(0) + ([None] if plain else []):
        fields = sorted(plain + ([case] if case else []), key=lambda f: f.number)
        params = []
        for field in plain:
            t = field.swift_type()
            if field.repeated:
                t = "[%s]" % t
            elif field.type == MESSAGE_T:
                t = "%s?" % t
            params.append("%s: %s" % (field.swift.strip("`"), t))
        if case:
            params.append("%s value: %s" % (case.case.strip("`"), case.swift_type()))
            out.append("\n    /// Appends a %s frame whose %s is `%s`, byte for byte as `appendFrame` of that\n"
                       "    /// message would, without building its oneof.\n" % (message.name, message.oneofs[0], case.name))
        else:
            out.append("\n    /// Appends a %s frame with no %s case, byte for byte as `appendFrame` of that\n"
                       "    /// message would.\n" % (message.name, message.oneofs[0]))
        out.append("    public static func appendFrame(%s, to buffer: inout [UInt8]) {\n" % ", ".join(params))
        # The usual reply (no status, a leaf case or none): nothing needs a ProtoSizes, so none is made.
        absent = [f for f in plain if needs_sizes(f)]
        if (not case or not needs_sizes(case)) and all(f.type == MESSAGE_T and not f.repeated for f in absent):
            quick = [f for f in fields if f not in absent]
            out.append("        if %s {\n" % (" && ".join("%s == nil" % f.swift for f in absent) or "true"))
            out.append("            var size = 0\n")
            for field in quick:
                if field is case:
                    out.append("\n".join(size_lines(field, "value", "            ")) + "\n")
                else:
                    out.append("\n".join(plain_measure_lines(field, field.swift, "            ", binding="present")) + "\n")
            out.append("            ProtoEncoding.appendFrame(size: size, to: &buffer) { writer in\n")
            for field in quick:
                if field is case:
                    out.append("\n".join(write_lines(field, "value", "                ")) + "\n")
                else:
                    out.append("\n".join(plain_write_lines(field, field.swift, "                ", binding="present")) + "\n")
            out.append("            }\n            return\n        }\n")
        out.append("        var sizes = ProtoSizes()\n        var size = 0\n")
        measure, write = [], []
        for field in fields:
            if field is case:
                measure.extend(size_lines(field, "value", "        "))
                write.extend(write_lines(field, "value", "            "))
            else:
                measure.extend(plain_measure_lines(field, field.swift, "        ", binding="present"))
                write.extend(plain_write_lines(field, field.swift, "            ", binding="present"))
        out.append("\n".join(measure) + "\n")
        out.append("        ProtoEncoding.appendFrame(size: size, to: &buffer) { writer in\n")
        out.append("            sizes.rewind()\n")
        out.append("\n".join(write) + "\n")
        out.append("        }\n    }\n")
        entry = catalogued_list_field(case)
        if entry is not None:
            out.append(emit_catalogued_case_appender(message, case, entry, plain, params))
    return "".join(out)


def emit_catalogued_case_appender(message, case, entry, plain, params):
    """The appender of `case` taking its one repeated field's entries as catalogued views: the same
    bytes as the appender of the message holding `entry.message` for each; without a ProtoSizes when
    the plain fields that need one are absent (else through that appender)."""
    view = "Proto.%s.Catalogued" % entry.type_name
    label = case.case.strip("`")
    params = params[:-1] + ["%s entries: UnsafeBufferPointer<%s>" % (label, view)]
    out = ["\n    /// Appends a %s frame whose %s is `%s` with its `%s` given as catalogued views,\n"
           "    /// byte for byte as the appender taking `Proto.%s` would.\n"
           % (message.name, message.oneofs[0], case.name, entry.name, case.type_name)]
    out.append("    public static func appendFrame(%s, to buffer: inout [UInt8]) {\n" % ", ".join(params))
    absent = [f for f in plain if needs_sizes(f)]
    if not all(f.type == MESSAGE_T and not f.repeated for f in absent):
        raise SystemExit("generate-wire: %s's plain fields need sizes when present" % message.name)
    quick = [f for f in plain if f not in absent]
    out.append("        if %s {\n" % (" && ".join("%s == nil" % f.swift for f in absent) or "true"))
    out.append("            var inner = 0\n")
    out.append("            for element in entries { let count = element.packedSize; inner += %d + ProtoWriter.varintSize(count) + count }\n"
               % len(key_bytes(entry.key)))
    out.append("            var size = 0\n")
    fields = sorted(quick + [case], key=lambda f: f.number)
    for field in fields:
        if field is case:
            out.append("            size += %d + ProtoWriter.varintSize(inner) + inner\n" % len(key_bytes(case.key)))
        else:
            out.append("\n".join(plain_measure_lines(field, field.swift, "            ", binding="present")) + "\n")
    out.append("            ProtoEncoding.appendFrame(size: size, to: &buffer) { writer in\n")
    for field in fields:
        if field is case:
            out.append("                %s; writer.varint(UInt64(inner))\n" % write_key(case))
            out.append("                for element in entries {\n")
            out.append("                    %s; writer.varint(UInt64(element.packedSize)); element.writeFields(&writer)\n"
                       % write_key(entry))
            out.append("                }\n")
        else:
            out.append("\n".join(plain_write_lines(field, field.swift, "                ", binding="present")) + "\n")
    out.append("            }\n            return\n        }\n")
    out.append("        var value = Proto.%s()\n" % case.type_name)
    out.append("        value.%s = entries.map(\\.message)\n" % entry.swift)
    out.append("        appendFrame(%s, %s: value, to: &buffer)\n"
               % (", ".join("%s: %s" % (f.swift.strip("`"), f.swift) for f in plain), label))
    out.append("    }\n")
    return "".join(out)


def row_view_messages(messages):
    """ROW_VIEWS and every message they hold, in .proto order."""
    names, queue = set(), sorted(ROW_VIEWS)
    while queue:
        name = queue.pop()
        if name in names:
            continue
        names.add(name)
        queue.extend(f.type_name for f in messages_by_name[name].fields if f.type == MESSAGE_T)
    return [m for m in messages if m.name in names]


def row_view_by_pointer(name):
    """True when rows of `name` are read through a pointer (a ROW_VIEWS root, or the element of a
    repeated field: read in place in a buffer, never copied out); else a singular or oneof message
    field's value, passed borrowed."""
    if name in ROW_VIEWS:
        return True
    return any(f.repeated and f.type == MESSAGE_T and f.type_name == name
               for m in messages_by_name.values() for f in m.fields)


def row_source_type(name):
    return "UnsafePointer<Source>" if row_view_by_pointer(name) else "Source"


def row_access(name):
    return "source.pointee." if row_view_by_pointer(name) else "source."


def fields_requirement(field):
    return "proto" + camel(field.name, upper_first=True)


def fields_source(field):
    """The associated type standing for a message field's (or oneof case's) rows."""
    return camel(field.name, upper_first=True) + "Source"


def oneof_fields_type(message, index):
    """`Proto.XYFields<…>`: the oneof's cases over the message cases' sources."""
    sources = [fields_source(f) for f in message.oneof_fields(index) if f.type == MESSAGE_T]
    name = "Proto.%s%sFields" % (message.name, message.oneof_swift(index))
    return name + ("<%s>" % ", ".join(sources) if sources else "")


def row_measure_lines(field, value, indent):
    """Lines adding a present message field's size (key included) to `size`, measured from its
    source `value` (passed borrowed)."""
    k = len(key_bytes(field.key))
    if row_view_by_pointer(field.type_name):
        raise SystemExit("generate-wire: %s is both a repeated and a singular row view" % field.type_name)
    return ["%sdo {" % indent,
            "%s    let slot = sizes.reserve()" % indent,
            "%s    let count = Proto.%s.measure(fields: %s, &sizes)" % (indent, field.type_name, value),
            "%s    sizes[slot] = count" % indent,
            "%s    size += %d + ProtoWriter.varintSize(count) + count" % (indent, k),
            "%s}" % indent]


def row_write_lines(field, value, indent):
    return ["%s%s; writer.varint(UInt64(sizes.next())); Proto.%s.write(fields: %s, &writer, &sizes)"
            % (indent, write_key(field), field.type_name, value)]


def row_repeated_lines(field, value, indent, measuring):
    k = len(key_bytes(field.key))
    body = ["%s%s { elements in" % (indent, value),
            "%s    guard let base = elements.baseAddress else { return }" % indent,
            "%s    for index in 0..<elements.count {" % indent]
    if measuring:
        body += ["%s        let slot = sizes.reserve()" % indent,
                 "%s        let count = Proto.%s.measure(fields: base + index, &sizes)" % (indent, field.type_name),
                 "%s        sizes[slot] = count" % indent,
                 "%s        size += %d + ProtoWriter.varintSize(count) + count" % (indent, k)]
    else:
        body += ["%s        %s; writer.varint(UInt64(sizes.next())); Proto.%s.write(fields: base + index, &writer, &sizes)"
                 % (indent, write_key(field), field.type_name)]
    return body + ["%s    }" % indent, "%s}" % indent]


def row_identifier_lines(field, value, indent, measuring):
    """An identifier field: a catalogued one's length is the catalogue's and its bytes are written
    from there (no NUL in any: `ReplyEncodingTests`), else as any string. The same entry in `sizes`."""
    inner = indent + "    "
    if measuring:
        return ["%sdo {" % indent,
                "%slet index = %sCatalogueIndex" % (inner, value),
                "%slet count = index >= 0 ? ProtoWriter.catalogueCount(index) : ProtoWriter.cStringCount(%s)" % (inner, value),
                "%ssizes.push(count)" % inner,
                "%sif count != 0 { size += %d + ProtoWriter.varintSize(count) + count }" % (inner, len(key_bytes(field.key))),
                "%s}" % indent]
    return ["%sdo {" % indent,
            "%slet count = sizes.next()" % inner,
            "%sif count != 0 {" % inner,
            "%s    let index = %sCatalogueIndex" % (inner, value),
            "%s    %s" % (inner, write_key(field)),
            "%s    if index >= 0 { writer.spelledString(ProtoWriter.catalogueSpelling(index)) } else { writer.cString(%s, count: count) }"
            % (inner, value),
            "%s}" % inner,
            "%s}" % indent]


def row_body_lines(message, measuring):
    """`measure(fields:)` or `write(fields:)`'s lines: the fields in number order, as the built
    message's `measure` / `write` (same checks, same ProtoSizes entries in the same order)."""
    body, indent = [], "        "
    plain = plain_measure_lines if measuring else plain_write_lines
    case = size_lines if measuring else write_lines
    for field in message.fields:
        value = row_access(message.name) + fields_requirement(field)
        if field.oneof is None:
            if field.repeated and field.type == MESSAGE_T:
                body += row_repeated_lines(field, row_access(message.name) + "withP" + fields_requirement(field)[1:], indent, measuring)
            elif field.repeated:
                raise SystemExit("generate-wire: %s.%s: repeated scalars in a row view are not supported" % (message.name, field.name))
            elif field.type == MESSAGE_T:
                body.append("%sif let present = %s {" % (indent, value))
                body += (row_measure_lines if measuring else row_write_lines)(field, "present", indent + "    ")
                body.append("%s}" % indent)
            elif is_catalogued_identifier(field):
                body += row_identifier_lines(field, value, indent, measuring)
            else:
                body += plain(field, value, indent)
        elif field is message.oneof_fields(field.oneof)[0]:
            body.append("%sswitch %s {" % (indent, row_access(message.name) + "proto" + message.oneof_swift(field.oneof)))
            for member in message.oneof_fields(field.oneof):
                body.append("%scase .%s(let value)?:" % (indent, member.case))
                if member.type == MESSAGE_T:
                    body += (row_measure_lines if measuring else row_write_lines)(member, "value", indent + "    ")
                else:
                    body += case(member, "value", indent + "    ")
            body.append("%scase nil: break" % indent)
            body.append("%s}" % indent)
    return body


def emit_row_view(message):
    out = ["\nextension Proto {\n"]
    for index in range(len(message.oneofs)):
        members = message.oneof_fields(index)
        generics = ["%s: Proto.%sFields" % (fields_source(f), f.type_name) for f in members if f.type == MESSAGE_T]
        name = "%s%sFields" % (message.name, message.oneof_swift(index))
        out.append("    /// The cases of %s.%s in a `%sFields` source, message cases as their own sources.\n"
                   % (message.name, message.oneofs[index], message.name))
        out.append("    package enum %s%s {\n" % (name, "<%s>" % ", ".join(generics) if generics else ""))
        for member in members:
            payload = fields_source(member) if member.type == MESSAGE_T else member.swift_type()
            out.append("        /// %s = %d.\n" % (member.name, member.number))
            out.append("        case %s(%s)\n" % (member.case, payload))
        out.append("    }\n\n")
    out.append("    /// %s's fields read in place from another representation of it, for\n"
               "    /// `Proto.%s.measure(fields:)` and `write(fields:)`: the bytes of the %s they make.\n"
               % (message.name, message.name, message.name))
    out.append("    package protocol %sFields {\n" % message.name)
    for field in message.fields:
        if field.type == MESSAGE_T:
            out.append("        /// The rows of %s's %s.\n" % (message.name, field.name))
            out.append("        associatedtype %s: Proto.%sFields\n" % (fields_source(field), field.type_name))
    for field in message.fields:
        if field.oneof is not None:
            continue
        requirement = fields_requirement(field)
        if field.repeated:
            out.append("        /// Runs `body` with %s = %d's elements, in the order they are written.\n" % (field.name, field.number))
            out.append("        func withP%s<R>(_ body: (UnsafeBufferPointer<%s>) -> R) -> R\n"
                       % (requirement[1:], fields_source(field)))
        elif field.type == MESSAGE_T:
            out.append("        /// %s = %d; nil when absent.\n" % (field.name, field.number))
            out.append("        var %s: %s? { get }\n" % (requirement, fields_source(field)))
        else:
            out.append("        /// %s = %d.\n" % (field.name, field.number))
            out.append("        var %s: %s { get }\n" % (requirement, field.swift_type()))
            if is_catalogued_identifier(field):
                out.append("        /// The catalogue index of %s when its bytes are exactly a catalogued identifier's\n"
                           "        /// (written from the catalogue's bytes, its length known), else -1.\n" % field.name)
                out.append("        var %sCatalogueIndex: Int { get }\n" % requirement)
    for index in range(len(message.oneofs)):
        out.append("        /// The %s case; nil when none is set.\n" % message.oneofs[index])
        out.append("        var proto%s: %s? { get }\n" % (message.oneof_swift(index), oneof_fields_type(message, index)))
    out.append("    }\n}\n")
    out.append("\nextension Proto.%s {\n" % message.name)
    out.append("    /// The packed size of the %s `source` makes, as `measure` of that message: keeps the same\n"
               "    /// entries in `sizes`.\n" % message.name)
    out.append("    package static func measure<Source: Proto.%sFields>(fields source: %s, _ sizes: inout ProtoSizes) -> Int {\n"
               % (message.name, row_source_type(message.name)))
    out.append("        var size = 0\n")
    out.append("\n".join(row_body_lines(message, True)) + "\n")
    out.append("        return size\n    }\n\n")
    out.append("    /// Writes the fields of the %s `source` makes, as `write` of that message.\n" % message.name)
    out.append("    package static func write<Source: Proto.%sFields>(fields source: %s, _ writer: inout ProtoWriter, _ sizes: inout ProtoSizes) {\n"
               % (message.name, row_source_type(message.name)))
    out.append("\n".join(row_body_lines(message, False)) + "\n")
    out.append("    }\n}\n")
    return "".join(out)


def emit_row_page_appenders(messages):
    """For each frame message's case whose message has a oneof case holding a page of rows: a message
    with one repeated field of a ROW_VIEWS message and otherwise fields of no message type
    (ServerFrame.stream_item → StreamItem.samples → SamplePage.samples; StreamItem.anchored_page →
    AnchoredPage.added beside its deleted uuids, anchor and done): an appender taking the rows as a
    buffer of sources and the page's other fields as values, byte for byte as the appender of the
    built item."""
    out = []
    for frame in messages:
        if frame.name not in FRAME_MESSAGES or len(frame.oneofs) != 1:
            continue
        plain = frame.plain_fields()
        for outer in frame.oneof_fields(0):
            if outer.type != MESSAGE_T:
                continue
            item = messages_by_name[outer.type_name]
            if len(item.oneofs) != 1 or item.plain_fields():
                continue
            for inner in item.oneof_fields(0):
                if inner.type != MESSAGE_T:
                    continue
                page = messages_by_name[inner.type_name]
                rows_fields = [f for f in page.fields if f.repeated and f.type == MESSAGE_T and f.type_name in ROW_VIEWS]
                if len(rows_fields) != 1 or page.oneofs or any(
                        f.type == MESSAGE_T for f in page.fields if f is not rows_fields[0]):
                    continue
                entry = rows_fields[0]
                others = [f for f in page.fields if f is not entry]
                names = [f.swift.strip("`") for f in plain + others]
                if len(set(names)) != len(names):
                    raise SystemExit("generate-wire: %s and %s have a field name in common" % (frame.name, page.name))
                label = camel(outer.name) + camel(inner.name, upper_first=True)
                params = []
                for field in plain:
                    t = field.swift_type()
                    if field.repeated:
                        t = "[%s]" % t
                    elif field.type == MESSAGE_T:
                        t = "%s?" % t
                    params.append("%s: %s" % (field.swift.strip("`"), t))
                params.append("%s rows: UnsafeBufferPointer<Source>" % label)
                for field in others:
                    t = field.swift_type()
                    params.append("%s: %s" % (field.swift.strip("`"), "[%s]" % t if field.repeated else t))
                out.append("\nextension Proto.%s {\n" % frame.name)
                if others:
                    out.append("    /// Appends a %s frame whose %s is a %s holding `%s`: its %s `rows`, each written\n"
                               "    /// through `Proto.%s.write(fields:)`, and its other fields as given, byte for byte as the\n"
                               "    /// appender of the built item.\n"
                               % (frame.name, frame.oneofs[0], outer.name, inner.name, entry.name, entry.type_name))
                else:
                    out.append("    /// Appends a %s frame whose %s is a %s holding `%s`: `rows`, each written\n"
                               "    /// through `Proto.%s.write(fields:)`, byte for byte as the appender of the built item.\n"
                               % (frame.name, frame.oneofs[0], outer.name, inner.name, entry.type_name))
                out.append("    package static func appendFrame<Source: Proto.%sFields>(%s, to buffer: inout [UInt8]) {\n"
                           % (entry.type_name, ", ".join(params)))
                out.append("        var sizes = ProtoSizes()\n        var size = 0\n        var page = 0\n        var item = 0\n")
                fields = sorted(plain + [outer], key=lambda f: f.number)
                ke, ki, ko = len(key_bytes(entry.key)), len(key_bytes(inner.key)), len(key_bytes(outer.key))
                for field in fields:
                    if field is outer:
                        # The page's fields in number order, measured into their own `size`.
                        out.append("        do {\n            var size = 0\n")
                        for member in page.fields:
                            if member is entry:
                                out.append("            if let base = rows.baseAddress {\n"
                                           "                for index in 0..<rows.count {\n"
                                           "                    let slot = sizes.reserve()\n"
                                           "                    let count = Proto.%s.measure(fields: base + index, &sizes)\n"
                                           "                    sizes[slot] = count\n"
                                           "                    size += %d + ProtoWriter.varintSize(count) + count\n"
                                           "                }\n            }\n" % (entry.type_name, ke))
                            else:
                                out.append("\n".join(plain_measure_lines(member, member.swift, "            ", binding="present")) + "\n")
                        out.append("            page = size\n        }\n")
                        out.append("        item = %d + ProtoWriter.varintSize(page) + page\n" % ki)
                        out.append("        size += %d + ProtoWriter.varintSize(item) + item\n" % ko)
                    else:
                        out.append("\n".join(plain_measure_lines(field, field.swift, "        ", binding="present")) + "\n")
                out.append("        ProtoEncoding.appendFrame(size: size, to: &buffer) { writer in\n")
                out.append("            sizes.rewind()\n")
                for field in fields:
                    if field is outer:
                        out.append("            %s; writer.varint(UInt64(item))\n" % write_key(outer))
                        out.append("            %s; writer.varint(UInt64(page))\n" % write_key(inner))
                        for member in page.fields:
                            if member is entry:
                                out.append("            if let base = rows.baseAddress {\n"
                                           "                for index in 0..<rows.count {\n"
                                           "                    %s; writer.varint(UInt64(sizes.next())); Proto.%s.write(fields: base + index, &writer, &sizes)\n"
                                           "                }\n            }\n" % (write_key(entry), entry.type_name))
                            else:
                                out.append("\n".join(plain_write_lines(member, member.swift, "            ", binding="present")) + "\n")
                    else:
                        out.append("\n".join(plain_write_lines(field, field.swift, "            ", binding="present")) + "\n")
                out.append("        }\n    }\n}\n")
    return "".join(out)


def emit_row_views(messages):
    out = [HEADER, "// Messages written from other representations of them (ROW_VIEWS in scripts/generate-wire.py):\n"
           "// a protocol of each message's fields read in place, and a writer over it giving exactly the bytes\n"
           "// of the built message (so exactly protobuf-c's).\n"]
    for message in row_view_messages(messages):
        out.append(emit_row_view(message))
    out.append(emit_row_page_appenders(messages))
    return "".join(out)


def check_oneof_contiguous(messages):
    for message in messages:
        numbers = [f.oneof for f in message.fields]
        for index in range(len(message.oneofs)):
            positions = [i for i, o in enumerate(numbers) if o == index]
            if positions != list(range(positions[0], positions[-1] + 1)):
                raise SystemExit("generate-wire: the members of %s.%s must have consecutive numbers among the "
                                 "message's fields (protobuf-c packs by number)" % (message.name, message.oneofs[index]))


def read_value(field, target, indent):
    """Lines reading one value of `field` into `target` (an assignment or append expression)."""
    t = field.type
    if field.resolved:
        return ["%sguard let value = reader.resolvedTypeIdentifier() else { return false }" % indent,
                "%s%s" % (indent, target)]
    if t == STRING and field.name in TYPE_IDENTIFIER_FIELDS:
        return ["%sguard let value = reader.typeIdentifier() else { return false }" % indent, "%s%s" % (indent, target)]
    if t == STRING:
        return ["%sguard let value = reader.string() else { return false }" % indent, "%s%s" % (indent, target)]
    if t == BYTES:
        return ["%sguard let value = reader.bytesField() else { return false }" % indent, "%s%s" % (indent, target)]
    if t == MESSAGE_T:
        return ["%sguard var nested = reader.nested() else { return false }" % indent,
                "%svar value = Proto.%s()" % (indent, field.type_name),
                "%sguard value.mergeStrict(&nested) else { return false }" % indent,
                "%s%s" % (indent, target)]
    if t == DOUBLE:
        return ["%sguard let bits = reader.fixed64() else { return false }" % indent,
                "%slet value = Double(bitPattern: bits)" % indent, "%s%s" % (indent, target)]
    conv = {INT64: "Int64(bitPattern: raw)", UINT64: "raw", UINT32: "UInt32(truncatingIfNeeded: raw)",
            INT32: "Int32(truncatingIfNeeded: raw)", BOOL: "raw != 0",
            ENUM_T: "Proto.%s(rawValue: Int32(truncatingIfNeeded: raw))" % field.type_name}[t]
    return ["%sguard let raw = reader.varint() else { return false }" % indent,
            "%slet value = %s" % (indent, conv), "%s%s" % (indent, target)]


def emit_decoding(messages):
    out = [HEADER, "// Reads every message strictly: it accepts only bytes protobuf-c reads the same way (every\n"
           "// field known, with its wire type, at most once unless repeated, one oneof case; strings valid\n"
           "// UTF-8 without NUL; varints of at most 10 bytes) and returns nil for anything else, which then\n"
           "// goes to protobuf-c (`Proto.decode`). The fuzzer and ProtoCodecTests compare the two.\n"]
    for message in messages:
        plain = [f for f in message.fields if not f.repeated and f.oneof is None]
        if len(plain) + len(message.oneofs) > 64:
            raise SystemExit("generate-wire: %s has too many fields for the seen-bits" % message.name)
        bits = {}
        for f in plain:
            bits[f.name] = len(bits)
        oneof_bits = {i: len(bits) + i for i in range(len(message.oneofs))}
        out.append("\nextension Proto.%s {\n" % message.name)
        out.append("    /// Reads the whole of `reader` strictly; nil when protobuf-c might read it differently.\n")
        out.append("    @inline(__always)\n")
        out.append("    public init?(strict reader: inout ProtoReader) {\n")
        out.append("        var message = Self()\n")
        out.append("        guard message.mergeStrict(&reader) else { return nil }\n")
        out.append("        self = message\n")
        out.append("    }\n\n")
        out.append("    /// Reads the whole of `reader` strictly into `self` (an empty message); false when protobuf-c\n")
        out.append("    /// might read it differently. In place, so nested messages are not copied through optionals.\n")
        out.append("    public mutating func mergeStrict(_ reader: inout ProtoReader) -> Bool {\n")
        if not message.fields:
            out.append("        return reader.isAtEnd\n    }\n}\n")
            continue
        if plain or message.oneofs:
            out.append("        var seen: UInt64 = 0\n")
        out.append("        while !reader.isAtEnd {\n")
        out.append("            guard let key = reader.key(), key <= 0xFFFF_FFFF else { return false }\n")
        out.append("            switch key {\n")
        for field in message.fields:
            out.append("            case %d:  // %s\n" % (field.key, field.name))
            if field.repeated:
                # Room for a few elements at the first one: most repeated fields hold a handful.
                out.append("                if self.%s.capacity == 0 { self.%s.reserveCapacity(4) }\n" % (field.stored, field.stored))
                out.extend(l + "\n" for l in read_value(field, "self.%s.append(value)" % field.stored, "                "))
            elif field.oneof is not None:
                bit = 1 << oneof_bits[field.oneof]
                out.append("                guard seen & 0x%X == 0 else { return false }\n" % bit)
                out.append("                seen |= 0x%X\n" % bit)
                out.extend(l + "\n" for l in read_value(
                    field, "self.%s = .%s(value)" % (message.oneof_property(field.oneof), field.case), "                "))
            else:
                bit = 1 << bits[field.name]
                out.append("                guard seen & 0x%X == 0 else { return false }\n" % bit)
                out.append("                seen |= 0x%X\n" % bit)
                out.extend(l + "\n" for l in read_value(field, "self.%s = value" % field.stored, "                "))
        out.append("            default:\n                return false\n")
        out.append("            }\n        }\n        return true\n    }\n}\n")
    return "".join(out)


def c_read(field, expr):
    """A Swift expression for one value of `field` read from the C member `expr`."""
    t = field.type
    if t == STRING:
        return "ProtoUnpacked.string(%s)" % expr
    if t == BYTES:
        return "ProtoUnpacked.bytes(%s)" % expr
    if t == MESSAGE_T:
        return "Proto.%s(unpacked: %s)" % (field.type_name, expr)
    if t == BOOL:
        return "%s != 0" % expr
    if t == ENUM_T:
        return "Proto.%s(rawValue: Int32(truncatingIfNeeded: %s.rawValue))" % (field.type_name, expr)
    return expr


def emit_unpacked(messages, c_prefix):
    out = [HEADER, "// Copies protobuf-c's unpacked structs into the Swift messages: the codec of record that\n"
           "// `Proto.decode` falls back to, and the reference the strict decoders are compared with.\n\n"
           "import HealthBrokerProto\n"]
    for message in messages:
        c_type = c_prefix + message.name
        out.append("\nextension Proto.%s {\n" % message.name)
        out.append("    /// Copies protobuf-c's unpacked %s.\n" % message.name)
        out.append("    init(unpacked pointer: UnsafePointer<%s>) {\n" % c_type)
        out.append("        self.init()\n")
        if message.fields or message.oneofs:
            out.append("        let c = pointer.pointee\n")
        if message.oneofs:
            out.append("        self.unknownFieldNumbers = ProtoUnpacked.unknownFieldNumbers(c.base)\n")
        for field in message.plain_fields():
            member = "c.%s" % field.c
            if field.repeated:
                element = "$0!" if field.type == MESSAGE_T else "$0"
                out.append("        self.%s = ProtoUnpacked.array(c.%s, count: c.n_%s) { %s }\n"
                           % (field.swift, field.c, field.name, c_read(field, element)))
            elif field.type == MESSAGE_T:
                out.append("        if let value = %s { self.%s = %s }\n" % (member, field.swift, c_read(field, "value")))
            else:
                out.append("        self.%s = %s\n" % (field.swift, c_read(field, member)))
        for index in range(len(message.oneofs)):
            out.append("        switch c.%s_case.rawValue {\n" % message.oneofs[index])
            for field in message.oneof_fields(index):
                if field.type == MESSAGE_T:
                    out.append("        case %d: if let value = c.%s { self.%s = .%s(%s) }\n"
                               % (field.number, field.c, message.oneof_property(index), field.case,
                                  c_read(field, "value")))
                else:
                    out.append("        case %d: self.%s = .%s(%s)\n"
                               % (field.number, message.oneof_property(index), field.case, c_read(field, "c." + field.c)))
            out.append("        default: break\n        }\n")
        out.append("    }\n")
        lower = message.c_func
        if message.name in FRAME_MESSAGES:
            # The frames every call decodes and encodes: concrete bodies, so nothing on the hot path
            # goes through the protocol's generic defaults.
            out.append("\n    /// Decodes `bytes`: strictly where the strict reader takes them, through protobuf-c\n")
            out.append("    /// otherwise; nil when protobuf-c cannot decode them either.\n")
            out.append("    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Self? {\n")
            out.append("        var reader = ProtoReader(bytes)\n")
            out.append("        var message = Self()\n")
            out.append("        if message.mergeStrict(&reader) { return message }\n")
            out.append("        return unpacked(bytes)\n    }\n")
            out.append("\n    /// Appends the message as a whole frame: the 5-byte header, then the packed message.\n")
            out.append("    public func appendFrame(to buffer: inout [UInt8]) {\n")
            out.append("        var sizes = ProtoSizes()\n")
            out.append("        let size = measure(&sizes)\n")
            out.append("        ProtoEncoding.appendFrame(size: size, to: &buffer) { writer in\n")
            out.append("            sizes.rewind()\n")
            out.append("            write(&writer, &sizes)\n")
            out.append("        }\n    }\n")
        out.append("\n    /// Decodes `bytes` with protobuf-c (the codec of record); nil when protobuf-c cannot.\n")
        out.append("    public static func unpacked(_ bytes: UnsafeBufferPointer<UInt8>) -> Self? {\n")
        out.append("        ProtoUnpacked.withUnpacked(bytes, unpack: %s__unpack, free: %s__free_unpacked) {\n"
                   % (lower, lower))
        out.append("            $0.map { Self(unpacked: $0) }\n        }\n    }\n")
        out.append("\n    /// Packs `self` through protobuf-c's own packer, via protobuf-c's unpack of the generated\n"
                   "    /// bytes: the bytes protobuf-c writes for the same message (tests and the fuzzer compare).\n")
        out.append("    public func repackedByProtobufC() -> [UInt8]? {\n")
        out.append("        let encoded = self.encoded()\n")
        out.append("        return encoded.withUnsafeBufferPointer { bytes in\n")
        out.append("            ProtoUnpacked.withUnpacked(bytes, unpack: %s__unpack, free: %s__free_unpacked) { message in\n"
                   % (lower, lower))
        out.append("                message.map { message in\n")
        out.append("                    ProtoUnpacked.pack(message, packedSize: %s__get_packed_size, pack: %s__pack)\n"
                   % (lower, lower))
        out.append("                }\n            }\n        }\n    }\n")
        out.append("}\n")
    return "".join(out)


def emit_methods(services, messages_by_name):
    call = messages_by_name["Call"]
    frame = messages_by_name["ServerFrame"]
    item = messages_by_name["StreamItem"]
    request_cases = {f.type_name: f for f in call.fields if f.oneof is not None}
    response_cases = {f.type_name: f for f in frame.fields if f.oneof is not None and f.type_name != "StreamItem"}
    item_cases = {f.type_name: f for f in item.fields if f.oneof is not None}
    methods = []
    for service in services:
        socket = SERVICE_SOCKETS.get(service["name"])
        if socket is None:
            raise SystemExit("generate-wire: service %s: add it to SERVICE_SOCKETS (which socket serves it)"
                             % service["name"])
        for method in service["method"]:
            input_type = method["input_type"].split(".")[-1]
            output_type = method["output_type"].split(".")[-1]
            if method["client_streaming"]:
                raise SystemExit("generate-wire: %s: client streaming is not supported" % method["name"])
            streaming = bool(method["server_streaming"])
            request = request_cases.pop(input_type, None)
            if request is None:
                raise SystemExit("generate-wire: rpc %s: no Call.request case of type %s (or used twice)"
                                 % (method["name"], input_type))
            cases = item_cases if streaming else response_cases
            response = cases.get(output_type)
            if response is None:
                raise SystemExit("generate-wire: rpc %s: no %s case of type %s" % (
                    method["name"], "StreamItem.item" if streaming else "ServerFrame.response", output_type))
            methods.append((method, socket, streaming, request, response, service["name"]))
    method_table[:] = methods
    if request_cases:
        raise SystemExit("generate-wire: Call.request cases without an rpc: %s" % ", ".join(
            f.name for f in request_cases.values()))
    used_responses = {r.name for (_, _, s, _, r, _) in methods if not s}
    unused = [f.name for f in response_cases.values() if f.name not in used_responses]
    if unused:
        raise SystemExit("generate-wire: ServerFrame.response cases without an rpc: %s" % ", ".join(unused))
    out = [HEADER, "// The method table of the .proto's services: every rpc, its request and response cases, the\n"
           "// socket that serves it, and whether it streams. The broker and the client read it from here.\n"]
    out.append("\n/// Which socket serves a method.\n")
    out.append("public enum MethodSocket: Sendable, Hashable {\n")
    out.append("    /// The app socket (after Hello).\n    case app\n")
    out.append("    /// The admin socket.\n    case admin\n")
    out.append("    /// Either socket (diagnostics).\n    case both\n}\n")
    out.append("\n/// Every rpc of the .proto's services; the raw value is its Call.request field number.\n")
    out.append("public enum ProtoMethod: Int, Sendable, CaseIterable {\n")
    for method, socket, streaming, request, response, service in methods:
        where = "either socket" if socket == "both" else "%s socket" % socket
        out.append("    /// %s.%s (%s%s).\n" % (service, method["name"], where, ", server stream" if streaming else ""))
        out.append("    case %s = %d\n" % (request.case, request.number))
    out.append("\n    /// The rpc's name in the .proto.\n")
    out.append("    public var name: String {\n        switch self {\n")
    for method, socket, streaming, request, response, service in methods:
        out.append('        case .%s: "%s"\n' % (request.case, method["name"]))
    out.append("        }\n    }\n")
    out.append("\n    /// The socket that serves it.\n")
    out.append("    public var socket: MethodSocket {\n        switch self {\n")
    for socket in ("app", "admin", "both"):
        names = [r.case for (_, s, _, r, _, _) in methods if s == socket]
        if names:
            out.append("        case %s:\n            .%s\n" % (", ".join("." + n for n in names), socket))
    out.append("        }\n    }\n")
    out.append("\n    /// True when it answers with a server stream of StreamItem items.\n")
    out.append("    public var isServerStreaming: Bool {\n        switch self {\n")
    streams = [r.case for (_, _, s, r, _, _) in methods if s]
    out.append("        case %s: true\n" % ", ".join("." + n for n in streams))
    out.append("        default: false\n        }\n    }\n")
    out.append("\n    /// The field number of its answer: a ServerFrame.response case, or a StreamItem.item case for a stream.\n")
    out.append("    public var responseField: Int {\n        switch self {\n")
    for method, socket, streaming, request, response, service in methods:
        out.append("        case .%s: %d\n" % (request.case, response.number))
    out.append("        }\n    }\n}\n")
    out.append("\nextension ProtoMethod {\n")
    out.append("    /// Its request with every field at its default: the Call.request case that calls it (tests\n"
               "    /// and fuzzer seeds cover every method from here).\n")
    out.append("    public var defaultRequest: Proto.Call.Request {\n        switch self {\n")
    for method, socket, streaming, request, response, service in methods:
        out.append("        case .%s: .%s(Proto.%s())\n" % (request.case, request.case, request.type_name))
    out.append("        }\n    }\n")
    out.append("\n    /// Its answer with every field at its default: the ServerFrame.response case, or for a stream\n"
               "    /// a StreamItem of its item case.\n")
    out.append("    public var defaultResponse: Proto.ServerFrame.Response {\n        switch self {\n")
    for method, socket, streaming, request, response, service in methods:
        if streaming:
            out.append("        case .%s:\n            .streamItem(Proto.StreamItem.with { $0.item = .%s(Proto.%s()) })\n" % (
                request.case, response.case, response.type_name))
        else:
            out.append("        case .%s: .%s(Proto.%s())\n" % (request.case, response.case, response.type_name))
    out.append("        }\n    }\n}\n")
    out.append("\nextension Proto.Call.Request {\n")
    out.append("    /// The rpc this request case calls.\n")
    out.append("    public var method: ProtoMethod {\n        switch self {\n")
    for method, socket, streaming, request, response, service in methods:
        out.append("        case .%s: .%s\n" % (request.case, request.case))
    out.append("        }\n    }\n}\n")
    return "".join(out)


def emit_call_handler():
    """The server's side of the method table (BrokerServer/Generated/CallHandler.pb.swift): a
    protocol with one handler per rpc, taking its generated request, and the one dispatch switch
    over Call.request that calls it, so a new rpc's handler is demanded by the compiler."""
    out = [HEADER, "// The server's side of the .proto's services: one handler requirement per rpc, taking the\n"
           "// rpc's generated request, and the one switch over Proto.Call.Request that calls it. A new rpc\n"
           "// is a new requirement: the conformer (the broker) does not compile until it has its handler.\n"
           "// Internal to the server module, so the conformer's handlers stay internal and the dispatch is\n"
           "// specialized for it: a direct call per case, as a hand-written switch.\n",
           "\nimport BrokerWire\n"]
    out.append("\n/// Handles every rpc of the .proto's services: one requirement per rpc, taking its generated\n"
               "/// request and the call's context.\n")
    out.append("protocol CallHandler: AnyObject {\n")
    out.append("    /// What a handler gets besides its request: the call it answers.\n")
    out.append("    associatedtype Context\n")
    for method, socket, streaming, request, response, service in method_table:
        where = "either socket" if socket == "both" else "%s socket" % socket
        out.append("\n    /// %s.%s (%s%s): answers with %s.\n" % (
            service, method["name"], where, ", server stream" if streaming else "",
            ("a stream of " if streaming else "") + method["output_type"].split(".")[-1]))
        out.append("    func handle%s(_ request: Proto.%s, context: Context)\n" % (
            method["name"], method["input_type"].split(".")[-1]))
    out.append("}\n")
    out.append("\nextension CallHandler {\n")
    out.append("    /// Calls the handler of the rpc `request` names: the one switch over Call.request's cases.\n")
    out.append("    @inline(__always)\n")
    out.append("    func dispatch(_ request: Proto.Call.Request, context: Context) {\n")
    out.append("        switch request {\n")
    for method, socket, streaming, request, response, service in method_table:
        out.append("        case .%s(let request): handle%s(request, context: context)\n" % (request.case, method["name"]))
    out.append("        }\n    }\n}\n")
    return "".join(out)


method_table = []
method_docs = {}

SCALAR_NAMES = {DOUBLE: "double", INT64: "int64", UINT64: "uint64", INT32: "int32", BOOL: "bool", STRING: "string",
                BYTES: "bytes", UINT32: "uint32"}


def swift_string(text):
    """`text` as a Swift string literal."""
    out = []
    for char in text:
        if char in '\\"':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif ord(char) < 0x20:
            out.append("\\u{%x}" % ord(char))
        else:
            out.append(char)
    return '"%s"' % "".join(out)


def swift_lines(lines):
    return "[%s]" % ", ".join(swift_string(line) for line in (lines or []))


def json_encode(field, value):
    """A Swift expression for one value of `field` as a ProtoJSON."""
    t = field.type
    if t == DOUBLE:
        return "ProtoJSON.double(%s)" % value
    if t == INT64:
        return "ProtoJSON.int64(%s)" % value
    if t == UINT64:
        return "ProtoJSON.uint64(%s)" % value
    if t == INT32:
        return "ProtoJSON.int32(%s)" % value
    if t == UINT32:
        return "ProtoJSON.uint32(%s)" % value
    if t == BOOL:
        return "ProtoJSON.bool(%s)" % value
    if t == STRING:
        return "ProtoJSON.string(%s)" % value
    if t == BYTES:
        return "ProtoJSON.bytes(%s)" % value
    if t == ENUM_T:
        return "ProtoJSON.enumValue(%s.rawValue, name: %s.jsonName)" % (value, value)
    return "%s.json()" % value


def json_decode(field, value, path):
    """A Swift expression reading one value of `field` from the ProtoJSON `value` at `path`."""
    t = field.type
    if t == DOUBLE:
        return "try %s.double(at: %s)" % (value, path)
    if t in (INT64, UINT64, INT32, UINT32):
        return "try %s.integer(%s.self, at: %s)" % (value, field.swift_type(), path)
    if t == BOOL:
        return "try %s.bool(at: %s)" % (value, path)
    if t == STRING:
        return "try %s.string(at: %s)" % (value, path)
    if t == BYTES:
        return "try %s.bytes(at: %s)" % (value, path)
    if t == ENUM_T:
        return "Proto.%s(rawValue: try %s.enumNumber(at: %s, type: \"%s\", number: Proto.%s.number(jsonName:)))" % (
            field.type_name, value, path, field.type_name, field.type_name)
    return "try Proto.%s(json: %s, path: %s)" % (field.type_name, value, path)


def json_present(field, value):
    """The condition under which a singular field is written to JSON: not its default."""
    t = field.type
    if t in (STRING, BYTES):
        return "!%s.isEmpty" % value
    if t == BOOL:
        return value
    if t == ENUM_T:
        return "%s.rawValue != 0" % value
    return "%s != 0" % value


def emit_json(messages, enums):
    out = [HEADER, "// protobuf's canonical JSON mapping of every message and enum, both ways: fields by JSON name\n"
           "// (lowerCamelCase) in declaration order, 64-bit integers as strings, bytes as base64, enums by\n"
           "// name, default values left out. `healthctl call` reads requests and writes replies with it.\n"]
    for enum in enums:
        out.append("\nextension Proto.%s {\n" % enum.name)
        out.append("    /// The value's name in the .proto, its JSON form; nil for a number this build does not name.\n")
        out.append("    public var jsonName: String? {\n        switch rawValue {\n")
        seen = set()
        for name, number in enum.values:
            if number in seen:
                continue
            seen.add(number)
            out.append('        case %d: "%s"\n' % (number, name))
        out.append("        default: nil\n        }\n    }\n")
        out.append("\n    /// The number of the value named `name` in the .proto; nil for another name.\n")
        out.append("    public static func number(jsonName name: String) -> Int32? {\n        switch name {\n")
        for name, number in enum.values:
            out.append('        case "%s": %d\n' % (name, number))
        out.append("        default: nil\n        }\n    }\n}\n")
    for message in messages:
        declared = sorted(message.fields, key=lambda f: f.index_in_proto)
        out.append("\nextension Proto.%s: ProtoJSONMessage {\n" % message.name)
        out.append("    /// The message in protobuf's canonical JSON mapping (default values left out).\n")
        out.append("    public func json() -> ProtoJSON {\n")
        if declared:
            out.append("        var members: [ProtoJSON.Member] = []\n")
        for field in declared:
            key = swift_string(field.json)
            if field.oneof is not None:
                out.append("        if case .%s(let value)? = self.%s { members.append(ProtoJSON.Member(%s, %s)) }\n"
                           % (field.case, message.oneof_property(field.oneof), key, json_encode(field, "value")))
            elif field.repeated:
                out.append("        if !self.%s.isEmpty { members.append(ProtoJSON.Member(%s, .array(self.%s.map { %s }))) }\n"
                           % (field.swift, key, field.swift, json_encode(field, "$0")))
            elif field.type == MESSAGE_T:
                out.append("        if let value = self.%s { members.append(ProtoJSON.Member(%s, value.json())) }\n"
                           % (field.swift, key))
            else:
                out.append("        if %s { members.append(ProtoJSON.Member(%s, %s)) }\n"
                           % (json_present(field, "self." + field.swift), key, json_encode(field, "self." + field.swift)))
        out.append("        return .object(%s)\n    }\n" % ("members" if declared else "[]"))
        out.append("\n    /// Reads the message from canonical JSON (see `ProtoJSONMessage`); null fields keep their default.\n")
        out.append("    public init(json: ProtoJSON, path: String = \"$\") throws(ProtoJSONError) {\n")
        out.append("        self.init()\n")
        out.append("        for member in try json.members(at: path) {\n")
        out.append("            let path = path + \".\" + member.key\n")
        out.append("            if case .null = member.value { continue }\n")
        out.append("            switch member.key {\n")
        for field in declared:
            labels = [field.json] + ([field.name] if field.name != field.json else [])
            out.append("            case %s:\n" % ", ".join(swift_string(l) for l in labels))
            if field.oneof is not None:
                prop = message.oneof_property(field.oneof)
                out.append("                guard self.%s == nil else { throw ProtoJSONError(path, \"a second field of oneof %s\") }\n"
                           % (prop, message.oneofs[field.oneof]))
                out.append("                self.%s = .%s(%s)\n" % (prop, field.case, json_decode(field, "member.value", "path")))
            elif field.repeated:
                out.append("                for (index, element) in try member.value.elements(at: path).enumerated() {\n")
                out.append("                    self.%s.append(%s)\n" % (field.swift, json_decode(field, "element", "path + \"[\\(index)]\"")))
                out.append("                }\n")
            else:
                out.append("                self.%s = %s\n" % (field.swift, json_decode(field, "member.value", "path")))
        out.append("            default:\n")
        out.append("                throw ProtoJSONError(path, \"unknown field of %s\")\n" % message.name)
        out.append("            }\n        }\n    }\n")
        for index in range(len(message.oneofs)):
            out.append("}\n\nextension Proto.%s.%s {\n" % (message.name, message.oneof_swift(index)))
            out.append("    /// The case's value as JSON.\n")
            out.append("    public var valueJSON: ProtoJSON {\n        switch self {\n")
            for field in message.oneof_fields(index):
                out.append("        case .%s(let value): %s\n" % (field.case, json_encode(field, "value")))
            out.append("        }\n    }\n")
        out.append("}\n")
    out.append("\nextension ProtoMethod {\n")
    out.append("    /// The method's request read from JSON, as the Call.request case that calls it.\n")
    out.append("    public func request(json: ProtoJSON) throws(ProtoJSONError) -> Proto.Call.Request {\n")
    out.append("        switch self {\n")
    for method, socket, streaming, request, response, service in method_table:
        out.append("        case .%s: .%s(try Proto.%s(json: json))\n" % (request.case, request.case, request.type_name))
    out.append("        }\n    }\n}\n")
    return "".join(out)


def emit_descriptors(messages, enums):
    out = [HEADER, "// The describe table of the .proto: every message's fields, every enum's values and every\n"
           "// method's request and response, with the .proto's comments (`healthctl describe`).\n"]
    out.append("\n/// The .proto's messages, enums and methods, as `healthctl describe` shows them.\n")
    out.append("public enum ProtoDescriptors {\n")
    out.append("    /// Every enum, in .proto order.\n")
    out.append("    public static let enums: [ProtoEnumDescriptor] = [\n")
    for enum in enums:
        out.append("        ProtoEnumDescriptor(name: %s, values: [\n" % swift_string(enum.name))
        for name, number in enum.values:
            out.append("            .init(name: %s, number: %d, doc: %s),\n"
                       % (swift_string(name), number, swift_lines(enum.value_docs.get(name))))
        out.append("        ], doc: %s),\n" % swift_lines(enum.doc))
    out.append("    ]\n\n")
    out.append("    /// Every message, in .proto order.\n")
    out.append("    public static let messages: [ProtoMessageDescriptor] = [\n")
    for message in messages:
        out.append("        ProtoMessageDescriptor(name: %s, fields: [\n" % swift_string(message.name))
        for field in sorted(message.fields, key=lambda f: f.index_in_proto):
            if field.type == MESSAGE_T:
                type_name, kind = field.type_name, ".message"
            elif field.type == ENUM_T:
                type_name, kind = field.type_name, ".enumeration"
            else:
                type_name, kind = SCALAR_NAMES[field.type], ".scalar"
            oneof = swift_string(message.oneofs[field.oneof]) if field.oneof is not None else "nil"
            out.append("            .init(name: %s, jsonName: %s, number: %d, type: %s, kind: %s, isRepeated: %s, oneof: %s, doc: %s),\n"
                       % (swift_string(field.name), swift_string(field.json), field.number, swift_string(type_name), kind,
                          "true" if field.repeated else "false", oneof, swift_lines(message.field_docs.get(field.name))))
        out.append("        ], doc: %s),\n" % swift_lines(message.doc))
    out.append("    ]\n\n")
    out.append("    /// Every method, in .proto order.\n")
    out.append("    public static let methods: [ProtoMethodDescriptor] = [\n")
    for method, socket, streaming, request, response, service in method_table:
        out.append("        ProtoMethodDescriptor(method: .%s, service: %s, request: %s, response: %s, doc: %s),\n"
                   % (request.case, swift_string(service), swift_string(request.type_name), swift_string(response.type_name),
                      swift_lines(method_docs.get((service, method["name"])))))
    out.append("    ]\n}\n")
    return "".join(out)


def attach_docs(file, messages, enums):
    info = file["source_code_info"]
    if not info:
        return
    for location in info["location"]:
        path = location["path"]
        text = comment_lines(location["leading"]) or comment_lines(location["trailing"])
        if not text:
            continue
        if len(path) == 2 and path[0] == 4:
            messages[path[1]].doc = text
        elif len(path) == 4 and path[0] == 4 and path[2] == 2:
            message = messages[path[1]]
            raw_field = sorted(message.fields, key=lambda f: f.index_in_proto)[path[3]]
            message.field_docs[raw_field.name] = text
        elif len(path) == 2 and path[0] == 5:
            enums[path[1]].doc = text
        elif len(path) == 4 and path[0] == 6 and path[2] == 2:
            service = file["service"][path[1]]
            method_docs[(service["name"], service["method"][path[3]]["name"])] = text
        elif len(path) == 4 and path[0] == 5 and path[2] == 2:
            enum = enums[path[1]]
            enum.value_docs[enum.values[path[3]][0]] = text


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    with open(sys.argv[1], "rb") as handle:
        file_set = message(handle.read(), FILE_SET)
    (file,) = [f for f in file_set["file"] if f["name"].endswith("healthbroker.proto")]
    if file["syntax"] != "proto3":
        raise SystemExit("generate-wire: proto3 expected")
    package = file["package"]
    c_prefix = "".join(part[:1].upper() + part[1:] + "__" for part in package.split("."))
    func_prefix = "__".join(package.split("."))
    messages = []
    for index, raw in enumerate(file["message_type"]):
        m = Message(raw, index)
        for position, f in enumerate(raw["field"]):
            for field in m.fields:
                if field.number == f["number"]:
                    field.index_in_proto = position
        m.c_func = func_prefix + "__" + c_lower(m.name)
        messages.append(m)
    enums = [Enum(raw, index) for index, raw in enumerate(file["enum_type"])]
    attach_docs(file, messages, enums)
    check_oneof_contiguous(messages)
    by_name = {m.name: m for m in messages}
    messages_by_name.update(by_name)
    outputs = {
        "Proto.pb.swift": emit_messages(messages, enums),
        "Proto+Encoding.pb.swift": emit_encoding(messages),
        "Proto+Decoding.pb.swift": emit_decoding(messages),
        "Proto+Unpacked.pb.swift": emit_unpacked(messages, c_prefix),
        "ProtoMethod.pb.swift": emit_methods(file["service"], by_name),
    }
    outputs["Proto+Fields.pb.swift"] = emit_row_views(messages)
    outputs["Proto+JSON.pb.swift"] = emit_json(messages, enums)
    outputs["ProtoDescriptors.pb.swift"] = emit_descriptors(messages, enums)
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, text in outputs.items():
        with open(os.path.join(sys.argv[2], name), "w") as handle:
            handle.write(text)
    if len(sys.argv) == 4:
        os.makedirs(sys.argv[3], exist_ok=True)
        with open(os.path.join(sys.argv[3], "CallHandler.pb.swift"), "w") as handle:
            handle.write(emit_call_handler())


if __name__ == "__main__":
    main()
