import Hummingbird
import NIOCore
import ServiceLifecycle

/// The web page and HTTP API as a service of a larger `ServiceGroup` (`flytracker run`):
/// the Hummingbird application, with `onBound` told the port once it listens, or nil when it
/// could not (the error is then `WebServer.Error.cannotListen`). Graceful shutdown of the
/// group stops it gracefully.
public struct WebService: Service {
    private let application: any ApplicationProtocol
    private let configuration: WebConfiguration
    private let onBound: @Sendable (Int?) -> Void

    /// Throws when the TLS files are unusable.
    public init(sources: WebSources, configuration: WebConfiguration, staticFiles: StaticFiles = .bundled(),
                onBound: @escaping @Sendable (Int?) -> Void) throws {
        self.configuration = configuration
        self.onBound = onBound
        application = try buildApplication(configuration: configuration, sources: sources, staticFiles: staticFiles) { channel in
            onBound(channel.localAddress?.port ?? configuration.port)
        }
    }

    public func run() async throws {
        do {
            try await application.run()
        } catch {
            onBound(nil)
            throw WebServer.Error.cannotListen(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
    }
}
