import Hummingbird
import Localization
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// Where and how the HTTP server listens.
public struct WebConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var serverName: String
    /// Log level of the server's logger (`LOG_LEVEL` is not read).
    public var logLevel: Logger.Level
    /// HTTPS: the certificate chain and private key files (PEM); nil serves plain HTTP.
    public var tls: WebTLSFiles?
    /// Connections, per-address connections and request timeouts.
    public var limits: WebLimits

    public static let defaultPort = 8080

    public init(host: String = "0.0.0.0", port: Int = WebConfiguration.defaultPort, serverName: String = "FlyTracker",
                logLevel: Logger.Level = .warning, tls: WebTLSFiles? = nil, limits: WebLimits = WebLimits()) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.logLevel = logLevel
        self.tls = tls
        self.limits = limits
    }
}

/// The PEM files of `--https-cert` and `--https-key`.
public struct WebTLSFiles: Sendable, Hashable {
    public var certificatePath: String
    public var keyPath: String

    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// NIO SSL's server configuration from the files; a clear error when one cannot be read.
    public func serverConfiguration() throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificatePath) } catch {
            throw WebServer.Error.badTLSFile(path: certificatePath, reason: "not a PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw WebServer.Error.badTLSFile(path: certificatePath, reason: "no certificate in it") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: keyPath, format: .pem) } catch {
            throw WebServer.Error.badTLSFile(path: keyPath, reason: "not a PEM private key (\(error))")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }
}

/// The Hummingbird application: the routes of `buildRouter` on `configuration`'s address.
/// `onServerRunning` receives the bound channel (its local address has the port when 0 was asked).
/// Every connection passes `ConnectionGuardHandler` (per-address limit, request timeouts);
/// at most `limits.maxConnections` are open at once. Throws when the TLS files are unusable.
public func buildApplication(configuration: WebConfiguration, sources: WebSources, staticFiles: StaticFiles = .bundled(),
                             onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) throws
    -> some ApplicationProtocol
{
    var logger = Logger(label: "flytracker.web")
    logger.logLevel = configuration.logLevel
    var sources = sources
    if configuration.tls != nil { sources.accounts?.servesHTTPS = true }
    let router = buildRouter(sources: sources, staticFiles: staticFiles)
    let limits = configuration.limits
    let ledger = ConnectionLedger()
    let http1 = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [ConnectionGuardHandler(limits: limits, ledger: ledger)]))
    let server = try configuration.tls.map { try HTTPServerBuilder.tls(http1, tlsConfiguration: try $0.serverConfiguration()) } ?? http1
    return Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: configuration.serverName,
                             availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)),
        onServerRunning: onServerRunning,
        logger: logger
    )
}

/// Every route: `/data/*.json` (dump1090-fa documents), `/api/*` (JSON API, errors as JSON),
/// and the bundled static files at `/` and `/<name>`.
public func buildRouter(sources: WebSources, staticFiles: StaticFiles = .bundled()) -> Router<WebRequestContext> {
    let router = Router(context: WebRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: KnownMethodsMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: SameOriginMiddleware())
    DataController(sources: sources).addRoutes(to: router.group("data"))
    AircraftController(sources: sources).addRoutes(to: router.group("api"))
    ReceiversController(sources: sources).addRoutes(to: router.group("api"))
    LanguagesController(catalogues: .shipped).addRoutes(to: router.group("api"))
    if let accounts = sources.accounts {
        AccountController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        PlacesController(accounts: accounts, sources: sources).addRoutes(to: router.group("api"))
        FriendsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        ProfileController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        GroupsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        GoalsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        PostsController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        CompareController(accounts: accounts, clock: sources.clock).addRoutes(to: router.group("api"))
        StatsController(database: sources.statistics ?? accounts.database).addRoutes(to: router.group("api"))
        VisitsController(database: sources.statistics ?? accounts.database).addRoutes(to: router.group("api"))
    } else if let statistics = sources.statistics {
        StatsController(database: statistics).addRoutes(to: router.group("api"))
        VisitsController(database: statistics).addRoutes(to: router.group("api"))
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
