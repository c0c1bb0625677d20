// Building a generated message in one expression.
extension ProtoMessage {
    /// An empty message with `populate` applied: `.adminListGrants(.with { $0.appID = appID })`.
    ///
    /// The generated messages have no memberwise initializers (a field added to the .proto would
    /// change every call site); this is how the client and the broker build a request or reply in place.
    @inline(__always)
    public static func with(_ populate: (inout Self) throws -> Void) rethrows -> Self {
        var message = Self()
        try populate(&message)
        return message
    }
}
