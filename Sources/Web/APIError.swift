import Feeds
import Hummingbird

/// An API error answered as `{"error": "<status reason>", "message": "<what was wrong>"}`
/// with its HTTP status.
public struct APIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    public var message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
    public static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }

    public var headers: HTTPFields { [.contentType: "application/json; charset=utf-8"] }

    public var body: String {
        var w = JSONWriter()
        w.add("error", status.reasonPhrase)
        w.add("message", message)
        return w.finish()
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// Turns any `HTTPError` thrown under `/api` (Hummingbird's own 4xx/5xx) into the JSON shape.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            throw APIError(error.status, error.body ?? error.status.reasonPhrase)
        }
    }
}
