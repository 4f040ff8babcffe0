import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing
@testable import Web

/// Profiles over HTTP: each field by its visibility for every kind of viewer, blocks hiding
/// the user altogether, and pictures through the image library (hostile uploads refused,
/// nothing stored).
@Suite("Web: profiles")
struct ProfileAPITests {
    /// A 1×1 PNG.
    static let png = [UInt8](Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!)

    enum Viewer: String, CaseIterable, Sendable { case loggedOut, stranger, friend, blocked, me }

    /// Whether a field of `visibility` is shown to `viewer`.
    static func shown(_ visibility: Visibility, to viewer: Viewer) -> Bool {
        switch viewer {
        case .me: true
        case .friend: visibility != .me
        case .loggedOut, .stranger: visibility == .public
        case .blocked: false
        }
    }

    @Test("Each field shows exactly to the viewers its visibility admits; a blocked viewer finds no such user", arguments: Visibility.allCases)
    func visibilityMatrix(_ level: Visibility) async throws {
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: try AppDatabase.inMemory(), bcryptCost: 4)
        try await buildApplication(configuration: WebConfiguration(port: 0), sources: sources).test(.router) { client in
            let ann = try await AccountTests.register(client, "ann")
            let cookies: [Viewer: HTTPFields] = [
                .loggedOut: [:], .stranger: try await AccountTests.register(client, "sam"),
                .friend: try await AccountTests.register(client, "fay"), .blocked: try await AccountTests.register(client, "bo"), .me: ann,
            ]
            func send(_ uri: String, _ method: HTTPRequest.Method, _ who: HTTPFields, _ json: String? = nil) async throws -> TestResponse {
                try await client.execute(uri: uri, method: method, headers: who, body: json.map { ByteBuffer(string: $0) }) { $0 }
            }
            _ = try await send("/api/me/friends", .post, cookies[.friend]!, #"{"username":"ann"}"#)
            _ = try await send("/api/me/friends/fay/accept", .post, ann)
            _ = try await send("/api/me/blocks", .post, ann, #"{"username":"bo"}"#)
            let place = try #require(try await send("/api/me/places", .post, ann, #"{"name":"Home","lat":52.4,"lon":4.9}"#).json()["id"] as? Int)
            let visibility = ProfileField.allCases.map { "\"\($0.rawValue)\":\"\(level.rawValue)\"" }.joined(separator: ",")
            let set = try await send("/api/me/profile", .put, ann, #"{"display_name":"Ann Spotter","bio":"<script>alert(1)</script>","home_place_id":\#(place),"visibility":{\#(visibility)}}"#)
            #expect(set.status == .ok, "\(set.text)")
            let upload = try await client.execute(uri: "/api/me/profile/picture", method: .put, headers: ann, body: ByteBuffer(bytes: Self.png)) { $0 }
            #expect(upload.status == .ok, "\(upload.text)")
            for viewer in Viewer.allCases {
                let r = try await send("/api/users/ann/profile", .get, cookies[viewer]!)
                if viewer == .blocked {
                    #expect(r.status == .notFound && !r.text.contains("Ann Spotter") && !r.text.contains("block"), "\(r.text)")
                    #expect(try await send("/api/users/ann/picture", .get, cookies[viewer]!).status == .notFound)
                    continue
                }
                #expect(r.status == .ok)
                let doc = try r.json()
                let show = Self.shown(level, to: viewer)
                #expect((doc["display_name"] as? String == "Ann Spotter") == show, "\(viewer) \(level) display_name")
                #expect((doc["bio"] as? String == "<script>alert(1)</script>") == show, "\(viewer) \(level) bio")
                #expect((doc["home"] != nil) == show, "\(viewer) \(level) home")
                #expect((doc["stats"] != nil) == show, "\(viewer) \(level) stats")
                #expect((doc["picture"] != nil) == show, "\(viewer) \(level) picture")
                let picture = try await send("/api/users/ann/picture", .get, cookies[viewer]!)
                #expect(picture.status == (show ? .ok : .notFound), "\(viewer) \(level) picture bytes")
                if show {
                    #expect(picture.headers[.contentType] == "image/png" && picture.headers[.init("X-Content-Type-Options")!] == "nosniff")
                    #expect(Array(picture.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
                }
            }
            // Ann, blocking bo, does not see bo either.
            #expect(try await send("/api/users/bo/profile", .get, ann).status == .notFound)
            #expect(try await send("/api/users/nobody/profile", .get, ann).status == .notFound)
        }
    }

    @Test("Hostile uploads get 415 or 413 and leave the stored picture as it was")
    func hostileUploads() async throws {
        var sources = try Sky.sources()
        sources.accounts = WebAccounts(database: try AppDatabase.inMemory(), bcryptCost: 4)
        try await buildApplication(configuration: WebConfiguration(port: 0), sources: sources).test(.router) { client in
            let ann = try await AccountTests.register(client, "ann")
            func upload(_ bytes: [UInt8]) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/api/me/profile/picture", method: .put, headers: ann, body: ByteBuffer(bytes: bytes)) { $0.status }
            }
            #expect(try await upload(Self.png) == .ok)
            let before = try await client.execute(uri: "/api/users/ann/picture", method: .get) { Array($0.body.readableBytesView) }
            let hostile: [([UInt8], HTTPResponse.Status)] = [
                (Array(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.utf8), .unsupportedMediaType),
                (Array("<html><script>alert(1)</script></html>".utf8), .unsupportedMediaType),
                (Array(Self.png.prefix(30)), .unsupportedMediaType),
                ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("<svg/>".utf8), .unsupportedMediaType),
                ([], .unsupportedMediaType),
                ([UInt8](repeating: 0xFF, count: 3 * 1024 * 1024), .contentTooLarge),
            ]
            for (bytes, status) in hostile {
                #expect(try await upload(bytes) == status, "\(bytes.prefix(12))")
            }
            let after = try await client.execute(uri: "/api/users/ann/picture", method: .get) { Array($0.body.readableBytesView) }
            #expect(after == before && !after.isEmpty, "a refused upload changes nothing")
            try await client.execute(uri: "/api/me/profile", method: .put, headers: ann, body: ByteBuffer(string: #"{"visibility":{"bio":"everyone"}}"#)) { r in
                #expect(r.status == .badRequest)
            }
            try await client.execute(uri: "/api/me/profile", method: .put, headers: ann, body: ByteBuffer(string: #"{"home_place_id":999}"#)) { r in
                #expect(r.status == .notFound)
            }
            try await client.execute(uri: "/api/me/profile", method: .put, headers: ann,
                                     body: ByteBuffer(string: #"{"display_name":"\#(String(repeating: "x", count: 65))"}"#)) { r in
                #expect(r.status == .badRequest)
            }
        }
    }
}
