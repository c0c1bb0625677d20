import BrokerModel

/// `healthctl types`: the catalogue, known locally (no daemon needed).
enum TypesCommand {
    /// Prints the catalogue as a table or a JSON array.
    static func run(context: CommandContext) {
        Console.output(context.json ? JSONOutput.types(TypeCatalogue.all) : TextOutput.typeTable(TypeCatalogue.all))
    }
}
