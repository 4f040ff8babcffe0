import ModeS

/// A minimal JSON object writer: keys in insertion order, numbers in their shortest
/// round-trip form, strings escaped per RFC 8259. Nested objects and arrays are added as
/// finished JSON text (`addRaw`, `JSONWriter.array`). No Foundation.
public struct JSONWriter: Sendable {
    public private(set) var text: String = "{"
    private var first = true

    public init() {}

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += name
        text += "\":"
    }

    public mutating func add(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name); text += String(value)
    }

    public mutating func add(_ name: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        key(name)
        text += value.description
    }

    public mutating func add(_ name: String, _ value: Bool?) {
        guard let value else { return }
        key(name); text += value ? "true" : "false"
    }

    public mutating func add(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name); JSONWriter.appendQuoted(value, to: &text)
    }

    public mutating func add(_ name: String, _ values: [String]?) {
        guard let values else { return }
        key(name)
        text += "["
        for (i, v) in values.enumerated() {
            if i > 0 { text += "," }
            JSONWriter.appendQuoted(v, to: &text)
        }
        text += "]"
    }

    public mutating func add(_ name: String, _ values: [Int]?) {
        guard let values else { return }
        addRaw(name, JSONWriter.array(values.map { String($0) }))
    }

    /// Adds a value that is already JSON text (a nested object or array). Nil adds nothing.
    public mutating func addRaw(_ name: String, _ json: String?) {
        guard let json else { return }
        key(name)
        text += json
    }

    /// A double rounded to `decimals` places (so documents stay short and stable).
    public mutating func add(_ name: String, _ value: Double?, decimals: Int) {
        add(name, value.map { JSONWriter.rounded($0, decimals) })
    }

    /// `value` rounded half away from zero to `decimals` places.
    public static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(decimals, 0) { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// A JSON array of elements that are already JSON text.
    public static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    /// The finished object.
    public func finish() -> String { text + "}" }

    /// Appends `s` as a JSON string literal.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONWriter {
    /// Adds a catalogue field's value as it is.
    public mutating func add(_ name: String, _ value: FieldJSON) {
        switch value {
        case .int(let v): add(name, v)
        case .double(let v): add(name, v)
        case .bool(let v): add(name, v)
        case .string(let v): add(name, v)
        case .strings(let v): add(name, v)
        }
    }
}
