import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The HTTP server running on its own (tests, embedders; `flytracker run` puts a `WebService`
/// in its own group instead): `start` binds and returns the port (useful with port 0), `stop`
/// shuts it down gracefully and waits.
public final class WebServer: Sendable {
    public enum Error: Swift.Error, CustomStringConvertible {
        case cannotListen(host: String, port: Int, reason: String)
        case alreadyStarted
        case badTLSFile(path: String, reason: String)

        public var description: String {
            switch self {
            case .cannotListen(let host, let port, let reason): "cannot listen for HTTP on \(host):\(port): \(reason)"
            case .alreadyStarted: "the web server is already running"
            case .badTLSFile(let path, let reason): "cannot use \(path) for HTTPS: \(reason)"
            }
        }
    }

    private struct Running {
        var task: Task<Void, Never>
        var group: ServiceGroup
    }

    private let running = Mutex<Running?>(nil)

    public init() {}

    /// Starts serving and returns once the socket is bound, with the port it is bound to.
    /// Throws `Error.cannotListen` (port in use, no permission…).
    @discardableResult
    public func start(sources: WebSources, configuration: WebConfiguration = WebConfiguration(),
                      staticFiles: StaticFiles = .bundled()) async throws -> Int {
        let (portStream, portContinuation) = AsyncStream<Result<Int, WebServer.Error>>.makeStream()
        let service = try WebService(sources: sources, configuration: configuration, staticFiles: staticFiles) { port in
            if let port { portContinuation.yield(.success(port)) }
        }
        var logger = Logger(label: "flytracker.web")
        logger.logLevel = configuration.logLevel
        let group = ServiceGroup(configuration: .init(services: [.init(service: service, serviceName: "web")],
                                                      gracefulShutdownSignals: [], logger: logger))
        let started = running.withLock { current -> Bool in
            guard current == nil else { return false }
            let task = Task.detached {
                do {
                    try await group.run()
                } catch {
                    // WebService says why it could not listen; anything else is said as such.
                    portContinuation.yield(.failure(error as? WebServer.Error
                        ?? .cannotListen(host: configuration.host, port: configuration.port, reason: "\(error)")))
                }
                portContinuation.finish()
            }
            current = Running(task: task, group: group)
            return true
        }
        guard started else { throw Error.alreadyStarted }
        for await result in portStream {
            switch result {
            case .success(let port): return port
            case .failure(let error):
                running.withLock { $0 = nil }
                throw error
            }
        }
        running.withLock { $0 = nil }
        throw Error.cannotListen(host: configuration.host, port: configuration.port, reason: "server stopped")
    }

    /// Stops the server (graceful shutdown of its service group) and waits for it to end.
    public func stop() async {
        let server = running.withLock { current -> Running? in
            defer { current = nil }
            return current
        }
        guard let server else { return }
        await server.group.triggerGracefulShutdown()
        await server.task.value
    }

    /// True between a successful `start` and `stop`.
    public var isRunning: Bool { running.withLock { $0 != nil } }
}
