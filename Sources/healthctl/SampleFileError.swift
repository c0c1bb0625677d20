/// A line of an import file that could not be read as a sample.
struct SampleFileError: Error, Equatable {
    /// The line's number, from 1.
    var line: Int
    /// What is wrong with it.
    var message: String
}
