import Foundation
import Hummingbird

/// Cross-site request forgery: a request that changes state (POST, PUT, PATCH, DELETE)
/// must come from this server's own page or from a program that is no browser.
///
/// - An `Origin` header (every browser sends one on such requests) must name this server:
///   the request's `Host`, or the `X-Forwarded-Host` a reverse proxy sets. Otherwise 403.
///   `Sec-Fetch-Site: cross-site` is refused the same way.
/// - A body must be JSON (`application/json`, or `+json`): the content types a cross-site
///   HTML form can send (`text/plain`, form encodings) are refused with 415 before any
///   parsing. A body without a declared type is read as JSON (programs such as curl in
///   scripts); picture uploads (`PUT …/picture`) take the image's own type.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    static var changesState: Set<HTTPRequest.Method> { [.post, .put, .patch, .delete] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.changesState.contains(request.method) else { return try await next(request, context) }
        if let origin = request.headers[.origin] {
            guard Self.isSameOrigin(origin, request: request) else {
                throw APIError(.forbidden, "cross-site request refused: Origin \(origin) is not this server")
            }
        } else if request.headers[.init("Sec-Fetch-Site")!]?.lowercased() == "cross-site" {
            throw APIError(.forbidden, "cross-site request refused")
        }
        if Self.hasBody(request), let type = request.headers[.contentType] {
            let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            let json = media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
            let picture = request.method == .put && request.uri.path.hasSuffix("/picture")
            guard json || picture else {
                throw APIError(.unsupportedMediaType, "request bodies are JSON: send Content-Type: application/json (not \(media))")
            }
        }
        return try await next(request, context)
    }

    /// Whether `origin` (`scheme://host[:port]`) names the server the request reached.
    static func isSameOrigin(_ origin: String, request: Request) -> Bool {
        guard let range = origin.range(of: "://") else { return false }
        let authority = origin[range.upperBound...].lowercased()
        guard !authority.isEmpty, !authority.contains("/") else { return false }
        let forwarded = request.headers[.init("X-Forwarded-Host")!]?
            .split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let host = (request.head.authority ?? request.headers[.init("Host")!])?.lowercased()
        return authority == host || authority == forwarded
    }

    static func hasBody(_ request: Request) -> Bool {
        if let length = request.headers[.contentLength] { return Int(length).map { $0 > 0 } ?? true }
        return request.headers[.transferEncoding] != nil
    }
}

/// Headers on every answer: `nosniff` (a JSON answer is never read as a page or script),
/// and neither page nor API may be framed by another site (`frame-ancestors 'none'`,
/// `X-Frame-Options: DENY` for older browsers). The page's own CSP (`StaticFiles`) is
/// completed with `frame-ancestors`.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        Self.apply(&response.headers)
        return response
    }

    static func apply(_ headers: inout HTTPFields) {
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.init("X-Frame-Options")!] = "DENY"
        if let policy = headers[.contentSecurityPolicy] {
            if !policy.contains("frame-ancestors") { headers[.contentSecurityPolicy] = policy + "; frame-ancestors 'none'" }
        } else {
            headers[.contentSecurityPolicy] = "frame-ancestors 'none'"
        }
    }
}

/// Methods the server answers; any other (TRACE, CONNECT, …) is 405 with the list in `Allow`.
struct KnownMethodsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var known: Set<HTTPRequest.Method> { [.get, .head, .post, .put, .patch, .delete, .options] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.known.contains(request.method) else {
            var response = APIError(.methodNotAllowed, "\(request.method.rawValue) is not served here").responseWithoutRequest
            response.headers[.allow] = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
            return response
        }
        return try await next(request, context)
    }
}
