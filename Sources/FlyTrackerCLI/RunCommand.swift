import ArgumentParser
import Demod
import Feeds
import Foundation
import Logging
import ModeS
import PostgresStore
import Radio
import Store
import Services
import ServiceLifecycle
import Tracking
import Web

/// `flytracker run`: the receiver.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the receiver: an RTL-SDR dongle (default), a recording (--ifile) or the simulator (--simulate).",
        discussion: """
            Demodulates 2.0 or 2.4 MS/s samples, decodes every frame with valid parity and keeps \
            the live aircraft table. --raw prints frames as AVR lines, --interactive shows the \
            table in the terminal, --json-dir writes aircraft.json, receiver.json and stats.json \
            every second (with tar1090's history files and range outline), --stats-file writes stats.json at exit. SIGINT or SIGTERM stop it cleanly.
            """
    )

    @OptionGroup(title: "Source") var source: SourceOptions
    @OptionGroup(title: "Dongle") var dongle: DongleOptions
    @OptionGroup(title: "Simulator") var simulator: SimulatorOptions
    @OptionGroup(title: "Network feeds") var network: FeedCommandOptions

    @Option(help: "Receiver latitude, degrees (for distances and local position decoding).")
    var lat: Double?

    @Option(help: "Receiver longitude, degrees.")
    var lon: Double?

    @Option(help: ArgumentHelp("The database: aircraft registrations and types, users, watchlists, the sighting log (default: $XDG_DATA_HOME/flytracker/flytracker.sqlite, else ~/.local/share/flytracker/flytracker.sqlite); or postgres://USER@HOST[:PORT]/DATABASE for the sighting log of many receivers.", valueName: "PATH|URL"))
    var db: String?

    @Option(help: ArgumentHelp("With --db postgres://…: a SQLite file to read registrations and types from instead of PostgreSQL's aircraft table.", valueName: "PATH"))
    var aircraftDb: String?

    @Flag(help: "Use no database: no registrations from it, no sighting log, no watchlist alerts.")
    var noDb = false

    @Option(help: ArgumentHelp("Serve the web page and HTTP API on this port (default 8080 with --net; 0: off).", valueName: "N"))
    var httpPort: Int?

    @Option(name: .customLong("https-cert"), help: ArgumentHelp("Serve the web page and API over HTTPS with this certificate chain (PEM); with --https-key.", valueName: "PATH"))
    var httpsCert: String?

    @Option(name: .customLong("https-key"), help: ArgumentHelp("The private key (PEM) of --https-cert.", valueName: "PATH"))
    var httpsKey: String?

    @Option(name: .customLong("http-max-connections"), help: ArgumentHelp("Web connections open at once (default \(WebLimits().maxConnections); \(WebLimits().maxConnectionsPerAddress) from one address); more wait.", valueName: "N"))
    var httpMaxConnections: Int?

    @Flag(help: "Print every frame as an AVR line (*HEX;).")
    var raw = false

    @Flag(help: "With --raw: include the 12 MHz timestamp (@TIMESTAMPHEX;).")
    var timestamps = false

    @Flag(help: "Show the aircraft table in the terminal, refreshed every second.")
    var interactive = false

    @Option(help: "Sort the interactive table by this column.")
    var sort: InteractiveSort = .distance

    @Option(help: ArgumentHelp("Write aircraft.json, receiver.json and stats.json here every second, history_N.json (trails) and outline.json (range) as dump1090-fa and readsb do.", valueName: "DIR"))
    var jsonDir: String?

    @Option(help: ArgumentHelp("History files kept in --json-dir (tar1090's trails at page load); 0 writes none.", valueName: "N"))
    var jsonHistory: Int = 120

    @Option(help: ArgumentHelp("Seconds between history files.", valueName: "S"))
    var jsonHistoryInterval: Double = 30

    @Option(help: ArgumentHelp("Hours outline.json keeps the farthest position of each bearing (it survives restarts); 0 writes no outline.", valueName: "H"))
    var rangeOutlineHours: Double = 24

    @Option(help: ArgumentHelp("Write stats.json here when the run ends.", valueName: "PATH"))
    var statsFile: String?

    @Flag(help: "Cheaper demodulation: the preamble must have its full shape, no equalisers or coherent pass (a few percent fewer frames in a busy sky, many fewer of the weakest; about 45 % less CPU, see the README's speed table).")
    var fast = false

    @Flag(help: "Print nothing but the output asked for (no summary at the end).")
    var quiet = false

    @Option(name: .customLong("auto-posts"), help: ArgumentHelp("Automatic posts to the feed: emergency (squawks 7500/7600/7700), new-type (the first of a type seen here), goal (goals reached, to the user's friends); comma-separated. Default: none.", valueName: "KINDS"))
    var autoPosts: String?

    /// The automatic posts `--auto-posts` enables.
    var autoPostKinds: Set<AutoPoster.Kind> {
        Set((autoPosts ?? "").split(separator: ",").compactMap { AutoPoster.Kind(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
    }

    func validate() throws {
        for kind in (autoPosts ?? "").split(separator: ",") where AutoPoster.Kind(rawValue: kind.trimmingCharacters(in: .whitespaces)) == nil {
            throw ValidationError("--auto-posts takes emergency, new-type and goal, not '\(kind)'")
        }
        if [source.inputFile != nil, simulator.simulate, network.netOnly].filter({ $0 }).count > 1 {
            throw ValidationError("choose one source: --ifile, --simulate or --net-only")
        }
        if (lat == nil) != (lon == nil) { throw ValidationError("give both --lat and --lon") }
        if let httpPort, !(0...65535).contains(httpPort) { throw ValidationError("--http-port must be 0…65535") }
        if (httpsCert == nil) != (httpsKey == nil) { throw ValidationError("give both --https-cert and --https-key") }
        if let httpMaxConnections, !(1...100_000).contains(httpMaxConnections) {
            throw ValidationError("--http-max-connections must be 1…100000")
        }
        if let lat, !(-90...90).contains(lat) { throw ValidationError("--lat must be within ±90") }
        if let lon, !(-180...180).contains(lon) { throw ValidationError("--lon must be within ±180") }
        if noDb && (db != nil || aircraftDb != nil) { throw ValidationError("--no-db and --db/--aircraft-db ask for opposite things: choose one") }
        if raw && interactive { throw ValidationError("--raw and --interactive both write to the terminal: choose one") }
        if !(0...10_000).contains(jsonHistory) { throw ValidationError("--json-history must be 0…10000") }
        if !(1...3600).contains(jsonHistoryInterval) { throw ValidationError("--json-history-interval must be 1…3600 seconds") }
        if rangeOutlineHours != 0 && !(0.1...8760).contains(rangeOutlineHours) {
            throw ValidationError("--range-outline-hours must be 0 (no outline) or 0.1…8760")
        }
    }

    /// Opens the database, the source and the network ports, then runs the receiver, the
    /// network feeds, the sighting log, the alerts and the web server as services of one
    /// `ServiceGroup` (`docs/ARCHITECTURE.md`). SIGINT or SIGTERM stop the receiver
    /// (`StopSignal`); when it has decoded the last frames and written its files, the group
    /// closes the feeds, lets the log write its last second, then stops the alerts and the
    /// web server.
    func run() async throws {
        let receiver = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
        let stop = StopSignal {}
        let (store, sightings) = try await openDatabase(stop: stop)
        // The simulator's own fleet first (its addresses are made up), then the imported
        // database, looked up once a second for the aircraft the fleet does not know.
        let quiet = quiet
        let lookup = store.map { StoreAircraftLookup($0.aircraft, report: { if !quiet { StandardStreams.error($0) } }) }
        var configuration = TableConfiguration()
        configuration.receiver = receiver
        var table = AircraftTable(configuration: configuration, database: simulatedFleet(receiver: receiver))
        table.defersLookups = lookup != nil
        var loop = ReceiverLoop(sampleRate: source.sampleRate.rate, table: table)
        if fast { loop.demodulator.tuning = .fast }
        let feedOptions = try network.feedOptions(position: receiver)
        let feeds = feedOptions.isEmpty ? nil : FeedHub(options: feedOptions, onEvent: { event in
            if !quiet { StandardStreams.error("\(event)") }
        })
        do { try await feeds?.start() } catch {
            StandardStreams.error("cannot open network port: \(error)")
            throw ExitCode(1)
        }
        loop.feeds = feeds
        do {
            let session = try await serve(loop: loop, feeds: feeds, store: sightings, lookup: lookup, receiver: receiver, stop: stop)
            await feeds?.shutdown()   // closed by its service already, unless the group never ran it
            try session.report()
        } catch {
            await feeds?.shutdown()
            throw error
        }
    }

    /// Opens the source, the web server and the alerts, and runs them with the receiver (and
    /// the feeds, already bound) as the services of one group until the receiver ends.
    private func serve(loop: ReceiverLoop, feeds: FeedHub?, store sightings: (any SightingStore)?, lookup: StoreAircraftLookup?, receiver: Coordinate?,
                       stop: StopSignal) async throws -> ReceiverSession {
        let opened = network.netOnly ? nil : try openSource(receiver: receiver)
        let capture = opened?.capture
        stop.onStop { capture?.stop() }
        let web = try makeWeb(store: sightings, receiver: receiver)
        // Reads the delivery log first: the rate limit goes on across the restart, and what an
        // earlier run raised but never delivered goes out at the start.
        let alerts = sightings.map { AlertService(dispatcher: AlertDispatcher(database: $0, now: loop.epoch)) }
        let recorder: RecorderService? = if let sightings {
            try await makeRecorder(store: sightings, epoch: loop.epoch, receiver: receiver, alerts: alerts?.queue)
        } else { nil }
        let outputs = try RunOutputs(command: self, epoch: loop.epoch, recorder: recorder,
                                     web: web.map { ($0.snapshots, $0.stats, $0.receivers) })
        outputs.onQuit = { stop.stop() }   // q in the interactive view
        let session = ReceiverSession(command: self, loop: loop, opened: opened, feeds: feeds, outputs: outputs, lookup: lookup,
                                      shouldStop: { stop.isSet })

        // Each service is named: without a name, ServiceLifecycle describes the service
        // value by reflection (`"\(service)"`), about 3 ms and a spread of code pages at start.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let web { services.append(.init(service: web.service, serviceName: "web")) }
        // The alerts and the log write what they hold, then wait for the group's shutdown: the
        // receiver, which feeds them, is later in the list and so stops first.
        if let alerts { services.append(.init(service: alerts, successTerminationBehavior: .ignore, serviceName: "alerts")) }
        if let recorder { services.append(.init(service: recorder, successTerminationBehavior: .ignore, serviceName: "recorder")) }
        if let feeds { services.append(.init(service: FeedService(hub: feeds), serviceName: "feeds")) }
        // Last in the list, first to stop: the receiver ends before what it feeds.
        services.append(.init(service: ReceiverService(ready: web?.ready, work: { await session.execute() }, stop: { stop.stop(); capture?.stop() }),
                              successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "receiver"))
        var logger = Logger(label: "flytracker.run")
        logger.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [], logger: logger))
        do { try await group.run() } catch {
            outputs.abandon()   // the receiver may never have run: give the terminal back
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
        return session
    }

    /// The sighting log, goals, automatic posts and reminders on `store`, their journal
    /// events queued for the webhook alerts (`alerts`).
    private func makeRecorder(store: any SightingStore, epoch: Double, receiver: Coordinate?,
                              alerts: AsyncStream<[JournalEventRecord]>.Continuation?) async throws -> RecorderService {
        do {
            return try await RecorderService(store: store, autoPosts: autoPostKinds, receiver: receiver, epoch: epoch, quiet: quiet,
                                       alerts: alerts, report: { StandardStreams.error($0) })
        } catch {
            StandardStreams.error("cannot start the sighting log: \(error)")
            throw ExitCode(1)
        }
    }

    /// The web page and HTTP API, when asked for: the server as a service of the run, what
    /// `run` publishes to it, and whether it bound its port (the receiver waits for that).
    private func makeWeb(store: (any SightingStore)?, receiver: Coordinate?) throws
        -> (service: WebService, ready: AsyncStream<Bool>, snapshots: SnapshotPublisher, stats: PublishedStats, receivers: PublishedReceivers)?
    {
        guard let port = httpPort ?? (network.net || network.netOnly ? WebConfiguration.defaultPort : nil), port > 0 else { return nil }
        let snapshots = SnapshotPublisher()
        let stats = PublishedStats()
        let receivers = PublishedReceivers()
        var sources = WebSources.recording(snapshots, stats: stats,
                                           receiver: ReceiverInfo(version: "flytracker 0.1.0", position: receiver),
                                           accounts: store.map { WebAccounts(database: $0) })
        sources.network = receivers
        var configuration = WebConfiguration(host: network.netBindAddress ?? "0.0.0.0", port: port)
        if let httpsCert, let httpsKey { configuration.tls = WebTLSFiles(certificatePath: httpsCert, keyPath: httpsKey) }
        if let httpMaxConnections {
            configuration.limits.maxConnections = httpMaxConnections
            configuration.limits.maxConnectionsPerAddress = min(configuration.limits.maxConnectionsPerAddress, httpMaxConnections)
        }
        let quiet = quiet
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = ["0.0.0.0", "::"].contains(configuration.host) ? "localhost" : configuration.host
        let (ready, bound) = AsyncStream.makeStream(of: Bool.self)
        let service: WebService
        do {
            service = try WebService(sources: sources, configuration: configuration) { port in
                if let port {
                    if !quiet { StandardStreams.error("web page and API on \(scheme)://\(host):\(port)/") }
                    bound.yield(true)
                } else {
                    bound.yield(false)
                }
                bound.finish()
            }
        } catch {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
        return (service, ready, snapshots, stats, receivers)
    }

    /// The aircraft database (registrations and types) and the store of the sighting log,
    /// accounts and alerts: both the SQLite file of `--db` (or the default path; created when
    /// missing), or with `--db postgres://…` PostgreSQL (buffered writes; waiting, with a
    /// message every attempt, while it does not answer), registrations from its aircraft
    /// table unless `--aircraft-db` names a SQLite file. Nil with `--no-db`.
    private func openDatabase(stop: StopSignal) async throws -> ((any SightingStore)?, (any SightingStore)?) {
        guard !noDb else { return (nil, nil) }
        if let db, PostgresURL.isPostgres(db) {
            let url: PostgresURL
            do { url = try PostgresURL(db) } catch {
                StandardStreams.error("\(error)")
                throw ExitCode(1)
            }
            guard let postgres = await PostgresStartup.open(url, shouldStop: { stop.isSet }, report: { StandardStreams.error($0) }) else {
                throw ExitCode(1)
            }
            let quiet = quiet
            postgres.onQueueEvent.withLock { $0 = { event in if !quiet { StandardStreams.error("\(event)") } } }
            if !quiet { StandardStreams.error("sighting log on \(url)") }
            // Registrations and types: PostgreSQL's own aircraft table (`db import-aircraft
            // --db postgres://…`), or the SQLite file of --aircraft-db.
            var aircraft: any SightingStore = postgres
            if let aircraftDb {
                do { aircraft = try AppDatabase.open(path: aircraftDb) } catch {
                    StandardStreams.error("cannot open the aircraft database \(aircraftDb): \(error)")
                    throw ExitCode(1)
                }
            }
            return (aircraft, postgres)
        }
        let sqlite = try openSQLite()
        return (sqlite, sqlite)
    }

    private func openSQLite() throws -> AppDatabase? {
        let path = db ?? AppDatabase.defaultPath()
        do {
            return try AppDatabase.open(path: path)
        } catch {
            StandardStreams.error("cannot open database \(path): \(error) (use --no-db to run without one)")
            throw ExitCode(1)
        }
    }
}
