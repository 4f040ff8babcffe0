import Feeds
import Foundation
import ModeS
import Testing
@testable import Tracking
@testable import Web

/// The field catalogue listed against every output: a field declared in `ModeS.Field`
/// reaches `decode`'s JSON Lines, the aircraft table, aircraft.json and `/api/aircraft`
/// (where its declaration says it does) with no other line written, and the documents
/// users read name its key.
@Suite struct FieldCatalogueTests {
    /// A slot value every type of the catalogue reads back as a real value (1: an odd CPR
    /// format, a true flag, 1 ft, category E1 needs its set in the high byte).
    static func sampleBits(_ field: Field) -> UInt64 {
        switch field {
        case .category: EmitterCategory(typeCode: 4, category: 3)!.fieldBits
        case .flight: Callsign.pack("TEST123")
        default: 1
        }
    }

    static func keys(of json: String) throws -> Set<String> {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return Set(object.keys)
    }

    @Test("the catalogue's JSON keys and numbers are unique and fit the storage")
    func keysAreUnique() {
        let keys = Field.allCases.map(\.declaration.key)
        #expect(Set(keys).count == keys.count)
        #expect(Field.allCases.count <= Field.capacity)
        // FieldSet's storage has `capacity` slots (reading past it would trap).
        #expect(FieldSet().slot(Field.capacity - 1) == 0)
        #expect(Field.allCases.map(\.rawValue) == Array(0..<UInt8(Field.allCases.count)))
    }

    @Test("every catalogue field set in a message is written by decode under its key, and nothing else is")
    func decodeWritesEveryField() throws {
        for field in Field.allCases {
            var fields = FieldSet()
            fields.set(field, bits: Self.sampleBits(field))
            #expect(try Self.keys(of: fields.json) == [field.declaration.key], "\(field)")
        }
    }

    @Test("the table keeps every field its declaration says it keeps from messages, and no other")
    func tableKeepsWhatTheCatalogueSays() {
        for field in Field.allCases {
            var fields = FieldSet()
            fields.set(field, bits: Self.sampleBits(field))
            var a = Aircraft(key: AircraftKey(address: 0x4CA123), type: .adsbICAO, source: .adsb, time: 0)
            a.absorb(fields, source: .adsb, time: 1, staleAfter: 60)
            let kept = a.bits(of: field) != nil
            #expect(kept == (field.declaration.kept == .fromMessages), "\(field)")
            if kept { #expect(a.bits(of: field) == Self.sampleBits(field)) }
        }
    }

    @Test("aircraft.json and /api/aircraft write every field the table has whose declaration has an aircraft.json style")
    func aircraftJSONWritesEveryField() throws {
        for field in Field.allCases where field.declaration.kept != .no {
            var a = Aircraft(key: AircraftKey(address: 0x4CA123), type: .adsbICAO, source: .adsb, time: 0)
            if field.declaration.kept == .fromMessages {
                var fields = FieldSet()
                fields.set(field, bits: Self.sampleBits(field))
                a.absorb(fields, source: .adsb, time: 1, staleAfter: 60)
            } else {
                // Kept by the table: the position and its NIC come from the CPR logic.
                a.position = Tracked(Coordinate(latitude: 52, longitude: 4), time: 1, source: .adsb)
                a.nic = Tracked(8, time: 1, source: .adsb)
            }
            let key = field.declaration.key
            let written = try Self.keys(of: AircraftJSON.object(a, at: 2))
            let api = try Self.keys(of: APIDocuments.object(a, at: 2))
            #expect(written.contains(key) == (field.declaration.json != nil), "\(field) in aircraft.json")
            #expect(api.contains(key) == (field.declaration.json != nil), "\(field) in /api/aircraft")
            #expect(api.isSuperset(of: written) && api.subtracting(written).isSubset(of: ["operator", "country", "military"]))
        }
    }

    @Test("the README and the API description name every key of the catalogue's outputs")
    func documentsNameEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let openAPI = try String(contentsOf: root.appendingPathComponent("Sources/Web/Public/openapi.yaml"), encoding: .utf8)
        for field in Field.allCases {
            let key = field.declaration.key
            #expect(readme.contains("`\(key)`"), "README names \(key)")
            if field.declaration.json != nil {
                #expect(openAPI.range(of: "\\b\(key)\\b", options: .regularExpression) != nil, "openapi.yaml names \(key)")
            }
        }
    }
}
