// A row's data: what a table document or an embedding program hands a cell.

/// A JSON-like value; hooks read it by key path through the host table.
public enum RowValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case list([RowValue])
    case object([String: RowValue])

    /// The value at a dot-separated key path; a number indexes a list ("logos.0"); "" is the value itself.
    public func value(at keyPath: some StringProtocol) -> RowValue? {
        var current = self
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) where !(keyPath.isEmpty) {
            switch current {
            case .object(let fields):
                guard let next = fields[String(key)] else { return nil }
                current = next
            case .list(let items):
                guard let i = Int(key), items.indices.contains(i) else { return nil }
                current = items[i]
            default:
                return nil
            }
        }
        return current
    }

    /// The name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .list: "a list"
        case .object: "an object"
        }
    }
}
