import Foundation
import Hummingbird
import Images

/// Pictures over HTTP, for profiles and posts alike: an upload read (at most 2 MiB, else 413)
/// and put through the image library (refused: 415), and a stored picture served with its
/// type, `nosniff` and a CSP that lets nothing run.
enum Pictures {
    /// The request's body as a validated, re-encoded picture at most `side` pixels a side.
    static func upload(_ request: Request, side: Int) async throws -> ProfilePicture {
        var body = request.body
        let buffer: ByteBuffer
        do { buffer = try await body.collect(upTo: ProfilePicture.maximumBytes) } catch {
            throw APIError(.contentTooLarge, "the picture is larger than \(ProfilePicture.maximumBytes) bytes (2 MiB)")
        }
        do { return try ProfilePicture.make(from: Array(buffer: buffer), side: side) } catch {
            if case .unavailable = error { throw APIError(.serviceUnavailable, error.description) }
            throw APIError(.unsupportedMediaType, error.description)
        }
    }

    /// A stored picture, or 404 when there is none (or its type is not one of ours).
    static func response(_ stored: (data: [UInt8], type: String)?) throws -> Response {
        guard let (data, type) = stored, ProfilePicture.Format.allCases.contains(where: { $0.contentType == type }) else {
            throw APIError.notFound("no picture")
        }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=300",
                                               .init("X-Content-Type-Options")!: "nosniff", .contentSecurityPolicy: "default-src 'none'"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
