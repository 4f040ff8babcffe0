import ModeS
/// Why a row of an aircraft file was not imported.
struct RowRejection: Error, Equatable, CustomStringConvertible {
    /// The kind, for counting ("bad address", "wrong column count", …).
    var kind: String
    /// The kind with the offending detail.
    var detail: String

    var description: String { detail.isEmpty ? kind : "\(kind): \(detail)" }
}

/// Column positions in an OpenSky header.
struct OpenSkyColumns {
    let count: Int
    let icao24: Int
    let registration: Int?
    let manufacturer: Int?
    let model: Int?
    let typeCode: Int?
    let operatorName: Int?
    let owner: Int?
    let built: Int?

    init(header: [String]) throws {
        let names = header.map { $0.trimmedASCII.lowercased() }
        func index(_ name: String) -> Int? { names.firstIndex(of: name.lowercased()) }
        guard let icao = index("icao24") else { throw AircraftImportError.missingColumn("icao24") }
        count = names.count
        icao24 = icao
        registration = index("registration")
        manufacturer = index("manufacturername")
        model = index("model")
        typeCode = index("typecode")
        operatorName = index("operator")
        owner = index("owner")
        built = index("built")
    }
}

/// Turning one row of fields into a record.
enum AircraftRow {
    /// tar1090-db: `ICAO;registration;typecode;flags;description;year;owner-operator;` — 7
    /// fields, or 8 when the trailing `;` leaves an empty last one. Flags is a string of
    /// `0`/`1` (position 1 military, 2 interesting, 3 PIA, 4 LADD).
    static func tar1090(_ raw: [String]) -> Result<AircraftInfo, RowRejection> {
        var fields = raw
        if fields.count == 8 && fields[7].isEmpty { fields.removeLast() }
        guard fields.count == 7 else {
            return .failure(RowRejection(kind: "wrong column count", detail: "\(raw.count) fields, expected 7"))
        }
        guard let address = parseAddress(fields[0]) else {
            return .failure(RowRejection(kind: "bad address", detail: "'\(fields[0].prefix(20))'"))
        }
        var flags = 0
        for (i, c) in fields[3].trimmedASCII.enumerated() {
            switch c {
            case "0": break
            case "1": if i < 4 { flags |= 1 << i }
            default: return .failure(RowRejection(kind: "bad flags", detail: "'\(fields[3].prefix(20))'"))
            }
        }
        return .success(AircraftInfo(
            address: address, registration: text(fields[1]), typeCode: text(fields[2]), typeDescription: text(fields[4]),
            ownerOperator: text(fields[6]), year: year(fields[5]), flags: AircraftFlags(rawValue: flags)))
    }

    /// OpenSky: by header columns; description from manufacturer and model, owner/operator
    /// from `operator` else `owner`, year from the first 4 digits of `built`.
    static func openSky(_ fields: [String], columns c: OpenSkyColumns) -> Result<AircraftInfo, RowRejection> {
        guard fields.count == c.count else {
            return .failure(RowRejection(kind: "wrong column count", detail: "\(fields.count) fields, expected \(c.count)"))
        }
        guard let address = parseAddress(fields[c.icao24]) else {
            return .failure(RowRejection(kind: "bad address", detail: "'\(fields[c.icao24].prefix(20))'"))
        }
        func value(_ i: Int?) -> String? { i.flatMap { text(fields[$0]) } }
        var description = value(c.model)
        if let manufacturer = value(c.manufacturer) {
            if let model = description {
                if !model.lowercased().hasPrefix(manufacturer.lowercased()) { description = manufacturer + " " + model }
            } else {
                description = manufacturer
            }
        }
        return .success(AircraftInfo(
            address: address, registration: value(c.registration), typeCode: value(c.typeCode), typeDescription: description,
            ownerOperator: value(c.operatorName) ?? value(c.owner), year: value(c.built).flatMap { year(String($0.prefix(4))) }))
    }

    /// 6 hex digits (either case) → address.
    static func parseAddress(_ field: String) -> UInt32? {
        let s = field.trimmedASCII
        guard s.utf8.count == 6, s.utf8.allSatisfy({ isHex($0) }) else { return nil }
        return UInt32(s, radix: 16)
    }

    static func isHex(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b)
    }

    /// Trimmed text, nil when empty.
    static func text(_ field: String) -> String? {
        let s = field.trimmedASCII
        return s.isEmpty ? nil : s
    }

    /// A plausible year (1900–2100), else nil (the row is kept).
    static func year(_ field: String) -> Int? {
        guard let y = Int(field.trimmedASCII), (1900...2100).contains(y) else { return nil }
        return y
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (ASCII only: fast on large files).
    var trimmedASCII: String {
        let u = utf8
        guard let first = u.firstIndex(where: { $0 != 32 && $0 != 9 }) else { return "" }
        guard let last = u.lastIndex(where: { $0 != 32 && $0 != 9 }) else { return "" }
        if first == u.startIndex && last == u.index(before: u.endIndex) { return self }
        return String(self[first...last])
    }
}
