import Foundation
import Logging
import PostgresNIO
import Store
import Synchronization
import Threads

/// FlyTracker's store on PostgreSQL, for many receivers and one database
/// (`--db postgres://USER@HOST/DATABASE`): the same schema and migrations as the SQLite store
/// (`Migrations`), the same operations (`SightingStore`) with the same results.
///
/// PostgresNIO's `PostgresClient` keeps a pool of connections (`maximumConnections`);
/// every statement is parameterised (values are bound, never spliced into SQL); rows are
/// written in multi-row batches, one transaction per `SightingBatch`.
///
/// Every call is async and bounded by `timeout`; no thread waits for the server. With
/// `bufferedWrites`, `write(_:)` queues the batch and returns at once (`SightingQueue`): a
/// database that goes away mid-run costs nothing until the queue's limit, and the queue
/// drains when it answers again.
public final class PostgresStore: Sendable {
    public let url: PostgresURL
    let client: PostgresClient
    /// The client's connection pool, running until `close()`.
    let runner: Task<Void, Never>
    /// A thread of the store's own for the pool, the queue's drain and `open`, so that they
    /// keep time when the cooperative threads are busy (see `ThreadExecutor`).
    let executor: ThreadExecutor
    /// Longest wait for one operation.
    public let timeout: Duration
    let logger: Logger
    let queue = Mutex<SightingQueue?>(nil)
    /// Told when buffered writes fail, recover or overflow (set it before writing).
    public let onQueueEvent = Mutex<(@Sendable (SightingQueueEvent) -> Void)?>(nil)

    private init(url: PostgresURL, timeout: Duration, maximumConnections: Int) {
        self.url = url
        self.timeout = timeout
        var logger = Logger(label: "flytracker.postgres")
        logger.logLevel = .critical
        self.logger = logger
        let tls: PostgresClient.Configuration.TLS = switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(host: url.host, port: url.port, username: url.username,
                                                         password: url.password, database: url.database, tls: tls)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        let executor = ThreadExecutor(name: "flytracker.postgres")
        self.executor = executor
        runner = Task(executorPreference: executor) { await client.run() }
    }

    /// Connects, migrates the schema to the latest version and returns the store. Throws a
    /// `StoreError` that says what failed (unreachable, refused login, no such database).
    public static func open(_ url: PostgresURL, timeout: Duration = .seconds(15), maximumConnections: Int = 8,
                            bufferedWrites: Bool = false, queueLimit: Int = SightingQueue.defaultLimit) async throws -> PostgresStore {
        let store = PostgresStore(url: url, timeout: timeout, maximumConnections: maximumConnections)
        do {
            // One plain connection first: the pool retries failed connections until a
            // request times out, hiding why (refused, no such database, login refused).
            try await withTaskExecutorPreference(store.executor) {
                try await store.withTimeout { try await store.probe() }
                // Migrations may take longer than one query on a busy or fresh server.
                try await store.withTimeout(max(timeout, .seconds(60))) { try await store.migrate() }
            }
        } catch {
            store.close()
            throw StoreError(description: "cannot use PostgreSQL at \(url): \(Self.describe(Self.reason(error)))")
        }
        if bufferedWrites { store.queue.withLock { $0 = SightingQueue(limit: queueLimit) } }
        return store
    }

    /// `close()`, telling the rows of the sighting log the server did not take in time.
    public func finishWriting() async -> Int {
        let left = await flush() ? 0 : queueState?.rows ?? 0
        close()
        return left
    }

    /// Closes the pool at once; a call after it fails. Rows still queued are dropped:
    /// `finishWriting()` writes them first.
    public func close() {
        runner.cancel()
    }

    // MARK: Connecting

    /// Connects once, outside the pool, and closes: the server's own error when it refuses.
    func probe() async throws {
        let tls: PostgresConnection.Configuration.TLS = switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(try .init(configuration: .makeClientConfiguration()))
        case .require: .require(try .init(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.username,
                                                             password: url.password, database: url.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        try await connection.close()
    }

    /// What a caller is told while the server is known to be away.
    static func unavailable(_ url: PostgresURL) -> StoreError {
        StoreError(description: "PostgreSQL at \(url) is unavailable (sightings are queued until it answers)")
    }

    /// The transaction's own reason when it failed inside and rolled back cleanly (a refused
    /// statement, a validation error thrown inside it); any other error as it is.
    static func reason(_ error: any Error) -> any Error {
        guard let e = error as? PostgresTransactionError, let inside = e.closureError, e.rollbackError == nil else { return error }
        return inside
    }

    /// A short, useful description of a PostgreSQL or connection error (PSQLError hides its
    /// details from `description`).
    public static func describe(_ error: any Error) -> String {
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] {
                let state = e.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + state
            }
            if let underlying = e.underlying { return "\(e.code): \(underlying)" }
            return "\(e.code)"
        }
        if let e = error as? StoreError { return e.description }
        return "\(error)"
    }

    /// True when `error` says the server is away (no connection, no answer, shutting down),
    /// not that it refused a statement: worth retrying later.
    static func isUnavailable(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let e = error as? PostgresTransactionError {
            // The transaction's begin, body or commit failed: judge what failed.
            return [e.beginError, e.closureError, e.commitError].contains { $0.map(isUnavailable) ?? false }
        }
        if let e = error as? StoreError { return e.description.hasPrefix("no answer") }
        if let e = error as? PostgresStatementError {
            // Through the seam: no SQLSTATE means no answer from the server.
            guard let state = e.sqlState else { return true }
            return ["08", "53", "57", "40"].contains(String(state.prefix(2)))
        }
        guard let e = error as? PSQLError else { return false }
        guard let state = sqlState(e) else { return true }
        // Connection exceptions, insufficient resources, operator intervention (shutdown),
        // and transaction rollbacks (serialization failure, deadlock) pass; others do not.
        return ["08", "53", "57", "40"].contains(String(state.prefix(2)))
    }

    /// The server's SQLSTATE of a PostgreSQL error.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    // MARK: Migrations

    /// Applies the migrations not applied yet, each in its own transaction, under an
    /// advisory lock so that two processes starting together do not both migrate.
    func migrate() async throws {
        try await client.query("CREATE TABLE IF NOT EXISTS flytracker_migrations (id text PRIMARY KEY, appliedAt double precision NOT NULL)", logger: logger)
        for migration in Migrations.all {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(7213401)", logger: logger)
                let applied = try await connection.query("SELECT 1 FROM flytracker_migrations WHERE id = \(migration.id)", logger: logger)
                var seen = false
                for try await _ in applied { seen = true }
                guard !seen else { return }
                for statement in migration.texts(for: .postgresql).flatMap(Self.statements) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let now = Date().timeIntervalSince1970
                try await connection.query("INSERT INTO flytracker_migrations (id, appliedAt) VALUES (\(migration.id), \(now))", logger: logger)
            }
        }
    }

    /// The ids of the migrations applied, in order.
    public func appliedMigrations() async throws -> [String] {
        try await sql.query("SELECT id FROM flytracker_migrations ORDER BY appliedAt, id").map { try $0.decode(0) }
    }

    /// Splits a migration's SQL into statements at top-level semicolons (not inside
    /// `$$ … $$` bodies, not in `--` comments, which are dropped); empty pieces are dropped.
    static func statements(_ sql: String) -> [String] {
        var out: [String] = []
        var current = ""
        var inBody = false
        var chars = Array(sql)[...]
        while let c = chars.popFirst() {
            if c == "-", chars.first == "-", !inBody {
                // A comment, to the end of its line (it may hold a `;`).
                while let next = chars.first, next != "\n" { chars.removeFirst() }
            } else if c == "$", chars.first == "$" {
                chars.removeFirst()
                current += "$$"
                inBody.toggle()
            } else if c == ";" && !inBody {
                out.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        out.append(current)
        return out.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { piece in
            !piece.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") || $0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
    }
}
