/// One SQL statement, written once for both engines: literal text, bound values (never
/// spliced into the text) and dialect-dependent pieces, rendered for an engine by
/// `rendered(for:)`.
///
///     let q: SQL = "SELECT id FROM visit WHERE address = \(address) AND NOT closed"
///     let order: SQL = "ORDER BY \(raw: column)"          // trusted text only
///     let both: SQL = "\(q) \(order)"                      // fragments nest
///     let big: SQL = "SELECT \(dialect: { $0.greatest })(a, b) FROM t"
public struct SQL: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    enum Piece: Sendable {
        case text(String)
        case value(SQLValue)
        case dialect(@Sendable (SQLDialect) -> String)
        /// A fragment that differs by engine and may bind values.
        case fragment(@Sendable (SQLDialect) -> SQL)
    }

    var pieces: [Piece]

    public init(stringLiteral value: String) {
        pieces = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    init(pieces: [Piece]) {
        self.pieces = pieces
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { pieces.append(.text(literal)) }
        }

        /// A bound value.
        public mutating func appendInterpolation<V: SQLValueConvertible>(_ value: V) {
            pieces.append(.value(value.sqlValue))
        }

        /// A bound value that may be NULL (said apart so that the compiler does not take an
        /// optional for a mistake).
        public mutating func appendInterpolation<V: SQLValueConvertible>(_ value: V?) {
            pieces.append(.value(value.sqlValue))
        }

        /// A nested statement fragment (its values stay bound).
        public mutating func appendInterpolation(_ fragment: SQL) {
            pieces += fragment.pieces
        }

        /// Text taken as it is: names and keywords the code chose, never user input.
        public mutating func appendInterpolation(raw text: String) {
            pieces.append(.text(text))
        }

        /// Text that differs by engine.
        public mutating func appendInterpolation(dialect text: @escaping @Sendable (SQLDialect) -> String) {
            pieces.append(.dialect(text))
        }

        /// A fragment that differs by engine, its values bound (`SQLDialect.hasDay`).
        public mutating func appendInterpolation(dialect fragment: @escaping @Sendable (SQLDialect) -> SQL) {
            pieces.append(.fragment(fragment))
        }
    }

    /// The statement's text for `dialect`, with its values in placeholder order.
    public func rendered(for dialect: SQLDialect) -> (text: String, values: [SQLValue]) {
        var text = ""
        var values: [SQLValue] = []
        render(for: dialect, into: &text, &values)
        return (text, values)
    }

    private func render(for dialect: SQLDialect, into text: inout String, _ values: inout [SQLValue]) {
        for piece in pieces {
            switch piece {
            case .text(let t): text += t
            case .value(let v):
                values.append(v)
                text += dialect.placeholder(values.count)
            case .dialect(let f): text += f(dialect)
            case .fragment(let f): f(dialect).render(for: dialect, into: &text, &values)
            }
        }
    }

    /// The fragments joined by `separator` (`AND`, `, `).
    public static func joined(_ fragments: [SQL], separator: String) -> SQL {
        var pieces: [Piece] = []
        for (i, fragment) in fragments.enumerated() {
            if i > 0 { pieces.append(.text(separator)) }
            pieces += fragment.pieces
        }
        return SQL(pieces: pieces)
    }

    /// Values bound as a comma-separated list, for `IN (…)` (both engines read it alike).
    public static func list<V: SQLValueConvertible>(_ values: [V]) -> SQL {
        joined(values.map { "\($0)" }, separator: ", ")
    }

    /// SQLite's rendering, for messages and tests.
    public var description: String { rendered(for: .sqlite).text }
}
