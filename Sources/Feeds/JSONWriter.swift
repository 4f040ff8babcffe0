/// A minimal JSON object writer for flat documents: keys in insertion order, numbers in
/// their shortest round-trip form, strings escaped per RFC 8259. No Foundation.
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
