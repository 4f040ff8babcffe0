import Foundation
import Testing
@testable import Feeds
import ModeS

/// Every line of `../shared/vectors/published.jsonl`, decoded through `DecodeSession`, the same
/// path `flytracker decode` takes, and compared key by key with the tolerances of
/// `../shared/README.md` (floats 1e-3, lat/lon 1e-5; a null expectation means the key is absent).
struct PublishedVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let frames: [(hex: String, t: Double?)]
        let reference: [Double]?
        let expect: [String: JSONValue]
        var testDescription: String { name }
    }

    /// A JSON value as the vectors hold it.
    enum JSONValue: Sendable, Equatable {
        case number(Double), string(String), bool(Bool), null, other
        init(_ any: Any) {
            switch any {
            case let b as Bool where type(of: any) == type(of: true as NSNumber) || any is Bool:
                self = .bool(b)
            case let n as NSNumber: self = .number(n.doubleValue)
            case let s as String: self = .string(s)
            case is NSNull: self = .null
            default: self = .other
            }
        }
    }

    static let vectorsURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/vectors/published.jsonl")

    static func load() throws -> [Vector] {
        let text = try String(contentsOf: vectorsURL, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let name = object["name"] as! String
            var frames: [(String, Double?)] = []
            if let hex = object["hex"] as? String {
                frames = [(hex, nil)]
            } else if let sequence = object["sequence"] as? [[String: Any]] {
                frames = sequence.map { ($0["hex"] as! String, ($0["t"] as? NSNumber)?.doubleValue) }
            }
            let expect = (object["expect"] as! [String: Any]).mapValues(JSONValue.init)
            return Vector(name: name, frames: frames, reference: object["ref"] as? [Double], expect: expect)
        }
    }

    static let vectors: [Vector] = (try? load()) ?? []

    @Test func theVectorFileIsPresentAndComplete() {
        #expect(Self.vectors.count == 50, "expected the 50 published vectors at \(Self.vectorsURL.path)")
    }

    @Test("published vector decodes to its expected values", arguments: vectors)
    func decodesPublishedVector(_ vector: Vector) throws {
        let reference = vector.reference.map { Coordinate(latitude: $0[0], longitude: $0[1]) }
        var session = DecodeSession(reference: reference)
        var last: FieldSet?
        for frame in vector.frames {
            last = try session.decode(line: Substring(frame.hex), time: frame.t)
        }
        let fields = try #require(last)
        let json = try JSONSerialization.jsonObject(with: Data(fields.json.utf8)) as! [String: Any]
        for (key, expected) in vector.expect {
            let actual = json[key].map(JSONValue.init) ?? .null
            switch (expected, actual) {
            case (.number(let e), .number(let a)):
                let tolerance = (key == "lat" || key == "lon") ? 1e-5 : 1e-3
                #expect(abs(e - a) <= tolerance, "\(key): expected \(e), got \(a)")
            default:
                #expect(expected == actual, "\(key): expected \(expected), got \(actual)")
            }
        }
    }
}
