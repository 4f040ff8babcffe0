import Hummingbird
import Logging
import NIOCore

/// Where the HTTP server listens.
public struct WebConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var serverName: String
    /// Log level of the server's logger (`LOG_LEVEL` is not read).
    public var logLevel: Logger.Level

    public static let defaultPort = 8080

    public init(host: String = "0.0.0.0", port: Int = WebConfiguration.defaultPort, serverName: String = "FlyTracker",
                logLevel: Logger.Level = .warning) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.logLevel = logLevel
    }
}

public typealias WebRequestContext = BasicRequestContext

/// The Hummingbird application: the routes of `buildRouter` on `configuration`'s address.
/// `onServerRunning` receives the bound channel (its local address has the port when 0 was asked).
public func buildApplication(configuration: WebConfiguration, sources: WebSources, staticFiles: StaticFiles = .bundled(),
                             onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
    -> some ApplicationProtocol
{
    var logger = Logger(label: "flytracker.web")
    logger.logLevel = configuration.logLevel
    let router = buildRouter(sources: sources, staticFiles: staticFiles)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: configuration.serverName),
        onServerRunning: onServerRunning,
        logger: logger
    )
}

/// Every route: `/data/*.json` (dump1090-fa documents), `/api/*` (JSON API, errors as JSON),
/// and the bundled static files at `/` and `/<name>`.
public func buildRouter(sources: WebSources, staticFiles: StaticFiles = .bundled()) -> Router<WebRequestContext> {
    let router = Router(context: WebRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    DataController(sources: sources).addRoutes(to: router.group("data"))
    AircraftController(sources: sources).addRoutes(to: router.group("api"))
    ReceiversController(sources: sources).addRoutes(to: router.group("api"))
    if let accounts = sources.accounts {
        AccountController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        PlacesController(accounts: accounts, sources: sources).addRoutes(to: router.group("api"))
        FriendsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        ProfileController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        GroupsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        GoalsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        FeedController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        CompareController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        StatsController(database: sources.statistics ?? accounts.database).addRoutes(to: router.group("api"))
    } else if let statistics = sources.statistics {
        StatsController(database: statistics).addRoutes(to: router.group("api"))
    }
    if staticFiles.files["openapi.yaml"] != nil {
        router.get("api/openapi.yaml") { _, _ in staticFiles.response("openapi.yaml") }
    }
    router.get("/") { _, _ in staticFiles.response("index.html") }
    for name in staticFiles.files.keys.sorted() where name != "openapi.yaml" {
        router.get(RouterPath(name)) { _, _ in staticFiles.response(name) }
    }
    return router
}
