import Foundation

/// The column names of one result, shared by its rows. Names are compared in lower case:
/// PostgreSQL returns unquoted names folded (`tokenhash`), SQLite as written (`tokenHash`).
public final class SQLColumns: Sendable {
    public let names: [String]
    let index: [String: Int]

    public init(_ names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name.lowercased()] == nil { index[name.lowercased()] = i }
        self.index = index
    }

    /// The position of a column, by name in any case.
    public func position(_ name: String) -> Int? { index[name.lowercased()] }
}

/// One row of a result, as either engine returned it.
public struct SQLRow: Sendable {
    public let columns: SQLColumns
    public let values: [SQLValue]

    public init(columns: SQLColumns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// Column `index` (from 0) as `T`; throws when it holds another type.
    public func decode<T: SQLValueConvertible>(_ index: Int, as type: T.Type = T.self) throws(SQLDecodingError) -> T {
        guard values.indices.contains(index) else { throw SQLDecodingError(column: "#\(index)", expected: "\(T.self)", found: "no such column") }
        guard let v = T(sqlValue: values[index]) else {
            throw SQLDecodingError(column: columns.names[index], expected: "\(T.self)", found: "\(values[index])")
        }
        return v
    }

    /// Column `name` as `T`.
    public func decode<T: SQLValueConvertible>(_ name: String, as type: T.Type = T.self) throws(SQLDecodingError) -> T {
        guard let i = columns.position(name) else { throw SQLDecodingError(column: name, expected: "\(T.self)", found: "no such column") }
        return try decode(i, as: type)
    }

    /// The whole row as a `Decodable` record, each property from the column of its name (in
    /// any case). Enums read their raw values; arrays and nested values read the JSON text
    /// GRDB's `Codable` records store.
    public func decode<R: Decodable>(record type: R.Type = R.self) throws -> R {
        try R(from: SQLRowDecoder(row: self))
    }
}

/// A column that does not hold what the code reads from it.
public struct SQLDecodingError: Error, CustomStringConvertible {
    public var column: String
    public var expected: String
    public var found: String

    public var description: String { "column \(column): expected \(expected), found \(found)" }
}

/// Decodes a record from a row by column name.
struct SQLRowDecoder: Decoder {
    let row: SQLRow
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a row is not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard row.values.count == 1 else {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a row of \(row.values.count) columns is not one value"))
        }
        return SQLValueDecoder(value: row.values[0], codingPath: codingPath)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: SQLRow
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { row.columns.names.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { row.columns.position(key.stringValue) != nil }

        func value(_ key: Key) throws -> SQLValue {
            guard let i = row.columns.position(key.stringValue) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "no column \(key.stringValue)"))
            }
            return row.values[i]
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let i = row.columns.position(key.stringValue) else { return true }
            return row.values[i] == .null
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try column(key).decodeValue(T.self)
        }

        // The scalars each by its own requirement: the generic one above would witness them
        // too, at a runtime type check per field.
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try column(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try column(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try column(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try column(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try column(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try column(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try column(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try column(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try column(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try column(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try column(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try column(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try column(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try column(key).decode(type) }

        func column(_ key: Key) throws -> SQLValueDecoder {
            SQLValueDecoder(value: try value(key), codingPath: [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "nested values are read as JSON"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "nested values are read as JSON"))
        }

        func superDecoder() throws -> any Decoder { SQLRowDecoder(row: row) }
        func superDecoder(forKey key: Key) throws -> any Decoder { SQLRowDecoder(row: row) }
    }
}

/// Decodes one column's value: a scalar, a raw-value enum, or JSON text.
struct SQLValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Bytes from a blob; anything else through its own `init(from:)` on this value (scalars
    /// land in the `decode` of their type below, optionals in `decodeNil`, raw-value enums
    /// in their raw value's), and when that asks for a container, from the column's JSON
    /// text. No `as?` on the type: a type's first cast to a protocol searches every
    /// conformance the program has (about half a millisecond each in this binary, by perf;
    /// five of them made a process's first record read 2 ms slower).
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Data.self {
            guard case .blob(let bytes) = value else { throw mismatch(T.self) }
            return bytes as! T
        }
        do {
            return try T(from: self)
        } catch is NeedsJSON {
            guard case .text(let json) = value else { throw mismatch(T.self) }
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        }
    }

    struct NeedsJSON: Error {}

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "column holds \(value)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String { try scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { Float(try scalar(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try narrow(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try narrow(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try narrow(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try narrow(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try narrow(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try narrow(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try narrow(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try narrow(type) }

    func scalar<T: SQLValueConvertible>(_ type: T.Type) throws -> T {
        guard let v = T(sqlValue: value) else { throw mismatch(T.self) }
        return v
    }

    func narrow<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let v = T(exactly: try scalar(Int64.self)) else { throw mismatch(T.self) }
        return v
    }
}
