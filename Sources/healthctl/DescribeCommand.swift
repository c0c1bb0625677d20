import BrokerWire
import CommandLineSupport

/// `healthctl describe [NAME]`: the method table, one method's messages, or one message or enum,
/// from the generated `ProtoDescriptors` (no broker needed).
enum DescribeCommand {
    /// Prints what NAME names, or every method; an unknown name is an `ArgumentError` (exit 64).
    static func run(_ command: ParsedCommand) throws(ArgumentError) {
        guard let name = command.positional("NAME") else {
            Console.output(methodTable())
            return
        }
        if let method = CallCommand.method(named: name),
           let descriptor = ProtoDescriptors.methods.first(where: { $0.method == method }) {
            Console.output(describe(descriptor))
        } else if let message = lookUp(name, in: ProtoDescriptors.messages, \.name) {
            Console.output(describe(message))
        } else if let enumeration = lookUp(name, in: ProtoDescriptors.enums, \.name) {
            Console.output(describe(enumeration))
        } else {
            throw ArgumentError(
                .invalidValue, "no method, message or enum named '\(name)' ('healthctl describe' lists the methods)",
                command: "healthctl describe")
        }
    }

    /// The element whose name is `name`, exactly or else in any case.
    private static func lookUp<T>(_ name: String, in list: [T], _ key: KeyPath<T, String>) -> T? {
        list.first { $0[keyPath: key] == name } ?? list.first { $0[keyPath: key].lowercased() == name.lowercased() }
    }

    /// One aligned line per method: service, name, socket, unary or stream, request → response.
    static func methodTable() -> String {
        let rows = ProtoDescriptors.methods.map { method in
            [
                method.service, method.method.name, socketName(method.method.socket),
                method.method.isServerStreaming ? "stream" : "unary", "\(method.request) → \(method.response)",
            ]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<4).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }.joined(separator: "  ")
                + "  " + row[4]
        }.joined(separator: "\n")
    }

    /// The method's rpc line, comment and socket, then its request and response messages.
    static func describe(_ method: ProtoMethodDescriptor) -> String {
        var lines = comment(method.doc, indent: "")
        let response = method.method.isServerStreaming ? "stream \(method.response)" : method.response
        lines.append("rpc \(method.service).\(method.method.name)(\(method.request)) returns (\(response))")
        lines.append("// \(socketName(method.method.socket)) socket\(method.method.socket == .app ? " (after Hello)" : "")")
        for name in [method.request, method.response] {
            if let message = ProtoDescriptors.messages.first(where: { $0.name == name }) {
                lines.append("")
                lines.append(describe(message))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The message in .proto syntax: its comment, then each field with its number, JSON name and comment.
    static func describe(_ message: ProtoMessageDescriptor) -> String {
        var lines = comment(message.doc, indent: "")
        lines.append("message \(message.name) {")
        var index = 0
        while index < message.fields.count {
            let field = message.fields[index]
            if let oneof = field.oneof {
                lines.append("  oneof \(oneof) {")
                while index < message.fields.count, message.fields[index].oneof == oneof {
                    lines += fieldLines(message.fields[index], indent: "    ")
                    index += 1
                }
                lines.append("  }")
            } else {
                lines += fieldLines(field, indent: "  ")
                index += 1
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The enum in .proto syntax.
    static func describe(_ enumeration: ProtoEnumDescriptor) -> String {
        var lines = comment(enumeration.doc, indent: "")
        lines.append("enum \(enumeration.name) {")
        for value in enumeration.values {
            let note = value.doc.isEmpty ? "" : "  // " + value.doc.joined(separator: " ")
            lines.append("  \(value.name) = \(value.number);\(note)")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func fieldLines(_ field: ProtoFieldDescriptor, indent: String) -> [String] {
        let label = field.isRepeated ? "repeated " : ""
        var notes = field.jsonName == field.name ? [] : ["json: \(field.jsonName)"]
        notes += field.doc
        let note = notes.isEmpty ? "" : "  // " + notes.joined(separator: "; ")
        return ["\(indent)\(label)\(field.type) \(field.name) = \(field.number);\(note)"]
    }

    private static func comment(_ doc: [String], indent: String) -> [String] {
        doc.map { $0.isEmpty ? "\(indent)//" : "\(indent)// \($0)" }
    }

    private static func socketName(_ socket: MethodSocket) -> String {
        switch socket {
        case .app: "app"
        case .admin: "admin"
        case .both: "both"
        }
    }
}
