import Foundation
import Hummingbird

/// The web page's files, read once from the bundled `Public` directory into memory. Only
/// these names are ever served: each becomes one exact route (`/app.js`), `/` is
/// `index.html`, so no request path is ever joined to a file-system path (no traversal).
public struct StaticFiles: Sendable {
    public struct File: Sendable {
        public var body: ByteBuffer
        public var contentType: String
    }

    /// File name → contents. Names are plain file names (no `/`, no leading `.`).
    public let files: [String: File]

    /// The page's script: every ES module (`*.js`), by name, as text.
    public var scripts: [String: String] {
        files.filter { $0.key.hasSuffix(".js") }.mapValues { String(buffer: $0.body) }
    }

    public init(files: [String: File]) {
        self.files = files
    }

    /// The files of `Bundle.module`'s `Public` directory (not recursive; hidden files skipped).
    public static func bundled() -> StaticFiles {
        guard let directory = Bundle.module.url(forResource: "Public", withExtension: nil) else { return StaticFiles(files: [:]) }
        return load(directory: directory)
    }

    /// The regular files directly in `directory`.
    public static func load(directory: URL) -> StaticFiles {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var files: [String: File] = [:]
        for name in names where isServable(name) {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = try? Data(contentsOf: url) else { continue }
            files[name] = File(body: ByteBuffer(bytes: data), contentType: contentType(of: name))
        }
        return StaticFiles(files: files)
    }

    /// A name made only of letters, digits, `-`, `_` and `.`, not starting with `.`.
    static func isServable(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != ".", name.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_" || $0 == "."
        }
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "yaml", "yml": "application/yaml; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    /// The response for one file.
    public func response(_ name: String) -> Response {
        guard let file = files[name] else {
            return APIError.notFound("no such file").responseWithoutRequest
        }
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: "no-cache",
            .init("X-Content-Type-Options")!: "nosniff",
        ]
        if file.contentType.hasPrefix("text/html") {
            headers[.init("Content-Security-Policy")!] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'"
            headers[.init("Referrer-Policy")!] = "no-referrer"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }
}

extension APIError {
    var responseWithoutRequest: Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
