import Foundation

/// One value crossing the storage seam, as both engines hold it: SQLite's storage classes,
/// plus a boolean (SQLite stores it as 0 or 1, PostgreSQL as `boolean`).
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
}

/// A Swift value that binds as a statement argument and reads back from a column.
public protocol SQLValueConvertible: Sendable {
    var sqlValue: SQLValue { get }
    /// The value of a column, or nil when it does not hold this type.
    init?(sqlValue: SQLValue)
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let v): self = v
        case .bool(let b): self = b ? 1 : 0
        // PostgreSQL's SUM of integers is numeric, read as a double.
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: self = Int64(d)
        default: return nil
        }
    }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard let v = Int64(sqlValue: sqlValue) else { return nil }
        self = Int(v)
    }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .double(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .double(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        guard case .text(let v) = sqlValue else { return nil }
        self = v
    }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .bool(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .bool(let b): self = b
        case .integer(let v): self = v != 0
        default: return nil
        }
    }
}

extension Data: SQLValueConvertible {
    public var sqlValue: SQLValue { .blob(self) }
    public init?(sqlValue: SQLValue) {
        guard case .blob(let v) = sqlValue else { return nil }
        self = v
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    public init?(sqlValue: SQLValue) {
        if case .null = sqlValue { self = .none; return }
        guard let v = Wrapped(sqlValue: sqlValue) else { return nil }
        self = .some(v)
    }
}
