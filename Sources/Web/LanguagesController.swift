import Hummingbird
import Localization

/// The page's texts: `GET /api/languages` lists the languages FlyTracker speaks
/// (`{"languages": [{"code", "name"}]}`, English first), `GET /api/languages/{code}` gives one
/// catalogue (`{"code", "name", "messages": {key: template}}`). Both are public and the same for
/// everyone; an unknown code is 404.
struct LanguagesController<Context: RequestContext> {
    let catalogues: MessageCatalogues

    struct Language: Encodable { var code: String; var name: String }
    struct Languages: Encodable { var languages: [Language] }
    struct Catalogue: Encodable { var code: String; var name: String; var messages: [String: String] }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("languages", use: list)
        group.get("languages/:code", use: catalogue)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let languages = catalogues.codes.compactMap { catalogues.catalogue($0) }.map { Language(code: $0.code, name: $0.name) }
        return try VisitsController<Context>.encoded(Languages(languages: languages))
    }

    @Sendable func catalogue(_ request: Request, context: Context) async throws -> Response {
        let code = context.parameters.get("code") ?? ""
        guard let c = catalogues.catalogue(code) else {
            throw APIError.notFound("no language '\(code.prefix(16))': FlyTracker speaks \(catalogues.codes.joined(separator: ", "))")
        }
        return try VisitsController<Context>.encoded(Catalogue(code: c.code, name: c.name, messages: c.messages))
    }
}
