import Foundation
import PostgresStore
import Store
import Synchronization

/// A real PostgreSQL server for the tests (store and web): `initdb` into a temporary directory,
/// `pg_ctl start` on a free loopback port, stopped (and the directory removed) when the test
/// process exits. No mock: the tests talk to PostgreSQL itself.
///
/// The binaries come from Debian's `/usr/lib/postgresql/VERSION/bin` (package `postgresql`)
/// or `$PATH`. PostgreSQL refuses to run as root; as root the server runs as the
/// `postgres` user (which Debian's package creates). Each test gets a database of its own.
public final class PostgresTestServer: Sendable {
    public let port: Int
    let directory: String
    let binaries: String
    let runAs: String?
    private let databases = Atomic<Int>(0)

    public enum Failure: Error, CustomStringConvertible {
        case missing(String)
        case command(String, String)
        public var description: String {
            switch self {
            case .missing(let what): "PostgreSQL test server: \(what) (apt-get install postgresql)"
            case .command(let command, let output): "PostgreSQL test server: \(command) failed: \(output)"
            }
        }
    }

    /// The server of this test process, started on first use.
    public static let shared: Result<PostgresTestServer, any Error> = Result { try PostgresTestServer() }

    /// A server of its own (for tests that stop it); stop it with `shutDown()`.
    public static func dedicated() throws -> PostgresTestServer { try PostgresTestServer() }

    /// Stops a dedicated server and removes its directory.
    public func shutDown() {
        try? run("\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    private init() throws {
        guard let bin = Self.findBinaries() else { throw Failure.missing("initdb and pg_ctl not found") }
        binaries = bin
        runAs = getuid() == 0 ? "postgres" : nil
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        directory = base
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        if let user = runAs {
            try Self.run("/bin/chown", [user, base])
            try Self.run("/bin/chmod", ["700", base])
        }
        port = try Self.freePort()
        try run("\(bin)/initdb", ["-D", "\(base)/data", "-U", "flytracker", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"])
        try run("\(bin)/pg_ctl", ["-D", "\(base)/data", "-l", "\(base)/server.log", "-w", "-t", "60", "-o",
                                  "-p \(port) -k \(base) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                                  "start"])
        if Self.registered.exchange(true, ordering: .relaxed) == false { atexit { PostgresTestServer.cleanUp() } }
    }

    private static let registered = Atomic<Bool>(false)

    /// At exit: stops the shared server and removes its directory.
    /// (libc `system`: Foundation's `Process` needs threads that are gone at exit.)
    static func cleanUp() {
        guard case .success(let server) = shared else { return }
        let prefix = server.runAs.map { "/usr/sbin/runuser -u \($0) -- " } ?? ""
        _ = system("\(prefix)\(server.binaries)/pg_ctl -D \(server.directory)/data -m immediate stop >/dev/null 2>&1; rm -rf \(server.directory)")
    }

    /// A new, empty database on the server and its address.
    public func makeDatabase() throws -> PostgresURL {
        let name = "t\(getpid())_\(databases.add(1, ordering: .relaxed).newValue)"
        try run("\(binaries)/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "flytracker", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                                     "-q", "-c", "CREATE DATABASE \(name)"])
        return PostgresURL(host: "127.0.0.1", port: port, username: "flytracker", database: name, tls: .disable)
    }

    /// Stops the server (immediately, as a crash would) and starts it again on the same port.
    public func stop() throws {
        try run("\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
    }

    public func start() throws {
        try run("\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "60", "-o",
                                       "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                                       "start"])
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        try Self.runCommand(tool, arguments, as: runAs)
    }

    @discardableResult
    static func runCommand(_ tool: String, _ arguments: [String], as user: String?) throws -> String {
        if let user { return try run("/usr/sbin/runuser", ["-u", user, "--", tool] + arguments) }
        return try run(tool, arguments)
    }

    /// Runs `tool` and waits for it (posix_spawn and waitpid: Foundation's `Process` does
    /// not notice its children exit reliably under the test runner). Output goes to a file,
    /// not a pipe: `pg_ctl start` leaves the server holding its output descriptors.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("flytracker-pg-cmd-\(UUID().uuidString)").path
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process's: a server started from here would otherwise keep the
        // sockets other tests have open (and closed) alive for as long as it runs.
        _ = spawnClosesFrom(&actions, 3)
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure.command(tool, String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // Exited normally with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw Failure.command(([tool] + arguments).joined(separator: " "), output)
        }
        return output
    }

    static func findBinaries() -> String? {
        let fm = FileManager.default
        var candidates: [String] = []
        if let versions = try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return candidates.first { dir in ["initdb", "pg_ctl", "postgres", "psql"].allSatisfy { fm.isExecutableFile(atPath: "\(dir)/\($0)") } }
    }

    /// A port nothing listens on now (bound to port 0, then released).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.missing("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure.missing("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Swift's Glibc module
/// does not import it): the child closes every descriptor from `from` up.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnClosesFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
