import Foundation

/// One language's texts: a message key (`kind.firstSeen`) → a template whose `{name}`
/// placeholders are filled when the text is used (`"{who} lands at {place} {when}"`).
///
/// A catalogue is one JSON object in `Catalogues/<code>.json`; its `language.name` key is the
/// language's own name (`Deutsch`), shown where a language is chosen.
public struct MessageCatalogue: Sendable, Equatable {
    /// The language code, as the file is named: `en`, `de`, `pt-BR`.
    public let code: String
    /// Key → template.
    public let messages: [String: String]

    public init(code: String, messages: [String: String]) {
        self.code = code
        self.messages = messages
    }

    /// The language's own name (`language.name`), else its code.
    public var name: String { messages["language.name"] ?? code }

    /// The names of the placeholders in a template: `{who} lands at {place}` → who, place.
    public static func placeholders(in template: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { names.insert(String(name)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// `template` with each `{name}` replaced by `arguments[name]`; a placeholder without an
    /// argument is left as written.
    public static func fill(_ template: String, _ arguments: [String: String]) -> String {
        guard !arguments.isEmpty, template.contains("{") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { rest = rest[open...]; break }
            let name = String(after[..<close])
            out += arguments[name] ?? "{\(name)}"
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
