import ArgumentParser
import Feeds
import ModeS
import Tracking

/// The network feeds of `run` (ports as readsb and dump1090-fa use them).
struct FeedCommandOptions: ParsableArguments {
    @Flag(help: "Open the network feeds on their standard ports (Beast 30005, AVR 30002, SBS 30003 out; Beast 30004,30104 and AVR 30001 in).")
    var net = false

    @Flag(help: "No radio: only frames arriving on the Beast/AVR input ports (implies --net).")
    var netOnly = false

    @Option(name: .customLong("net-bind-address"), help: "Address the feed ports and the web server listen on (default 0.0.0.0: every interface; 127.0.0.1: this machine only).")
    var netBindAddress: String?

    @Option(name: [.customLong("net-bo-port"), .customLong("net-beast-port")], help: "Beast output port(s), comma-separated; 0 disables (default 30005).")
    var netBeastOutPort: String?

    @Option(name: .customLong("net-ro-port"), help: "AVR output port(s); 0 disables (default 30002).")
    var netRawOutPort: String?

    @Option(name: .customLong("net-sbs-port"), help: "SBS output port(s); 0 disables (default 30003).")
    var netSBSPort: String?

    @Option(name: .customLong("net-bi-port"), help: "Beast input port(s); 0 disables (default 30004,30104).")
    var netBeastInPort: String?

    @Option(name: .customLong("net-ri-port"), help: "AVR input port(s); 0 disables (default 30001).")
    var netRawInPort: String?

    @Option(name: .customLong("net-beast-reduce-out-port"), help: "Reduced Beast output port(s) (readsb's BeastReduce: one message of each kind per aircraft per --net-beast-reduce-interval); default none.")
    var netBeastReduceOutPort: String?

    @Option(name: .customLong("net-beast-reduce-interval"), help: ArgumentHelp("Seconds between two reduced messages of one aircraft and kind (default 0.25, as readsb).", valueName: "SECONDS"))
    var netBeastReduceInterval: Double?

    @Option(name: .customLong("net-connector"), help: "Outbound connection HOST:PORT:PROTOCOL (beast_out, beast_reduce_out, beast_reduce_plus_out, beast_in, raw_out, raw_in, sbs_out); repeatable. Reconnects with back-off.")
    var netConnector: [String] = []

    @Option(name: .customLong("net-heartbeat"), help: "Seconds between heartbeats on idle outputs (0 = none; default 60).")
    var netHeartbeat: Double?

    @Option(name: .customLong("receiver-id"), help: ArgumentHelp("This receiver's id in a network: a UUID (readsb's form) or a name; sent on every beast_out connector with --receiver-name and --lat/--lon so an aggregator can merge receivers.", valueName: "ID"))
    var receiverID: String?

    @Option(name: .customLong("uuid-file"), help: ArgumentHelp("File holding this receiver's UUID (readsb's --uuid-file; created with a new UUID when missing): the id beast_out and beast_reduce_plus_out connectors announce.", valueName: "PATH"))
    var uuidFile: String?

    @Option(name: .customLong("receiver-name"), help: ArgumentHelp("A name for this receiver shown by the aggregator (up to 64 bytes).", valueName: "NAME"))
    var receiverName: String?

    @Option(name: .customLong("net-merge-window"), help: ArgumentHelp("Aggregator: identical frames from different receivers within this many seconds are one transmission (default 0.5; 0 counts every copy).", valueName: "SECONDS"))
    var netMergeWindow: Double?

    @Flag(name: .customLong("net-ro-timestamps"), help: "AVR output lines with the 12 MHz timestamp (@TTTTTTTTTTTTHEX;); default *HEX; as readsb and dump1090-fa send.")
    var netRawTimestamps = false

    @Option(name: .customLong("net-max-connections"), help: ArgumentHelp("Feed connections open at once, all ports together (default \(FeedLimits().maxConnections); \(FeedLimits().maxConnectionsPerPort) on one port, \(FeedLimits().maxConnectionsPerAddress) from one address); more are refused.", valueName: "N"))
    var netMaxConnections: Int?

    @Option(name: .customLong("net-max-receivers"), help: ArgumentHelp("Receivers of a network the aggregator keeps (default \(FeedLimits().maxReceivers)); the one silent longest is forgotten first.", valueName: "N"))
    var netMaxReceivers: Int?

    @Option(name: .customLong("net-input-timeout"), help: ArgumentHelp("Close an input connection that sends nothing for this long (default \(Int(FeedLimits().inputIdleTimeout)) s).", valueName: "SECONDS"))
    var netInputTimeout: Double?

    func validate() throws {
        if let netMaxConnections, !(1...100_000).contains(netMaxConnections) {
            throw ValidationError("--net-max-connections must be 1…100000")
        }
        if let netMaxReceivers, !(1...100_000).contains(netMaxReceivers) {
            throw ValidationError("--net-max-receivers must be 1…100000")
        }
        if let netInputTimeout, !(netInputTimeout >= 1 && netInputTimeout <= 86_400) {
            throw ValidationError("--net-input-timeout must be 1…86400 seconds")
        }
        if let receiverID, ReceiverID.parse(receiverID) == nil {
            throw ValidationError("--receiver-id must be a UUID or 1 to 64 printable characters without spaces")
        }
        if let receiverName, receiverName.isEmpty || receiverName.utf8.count > ReceiverAnnouncement.maxNameLength {
            throw ValidationError("--receiver-name must be 1 to \(ReceiverAnnouncement.maxNameLength) bytes")
        }
        if let netMergeWindow, !(0...10).contains(netMergeWindow) {
            throw ValidationError("--net-merge-window must be 0…10 seconds")
        }
        if receiverID == nil && uuidFile == nil && receiverName != nil {
            throw ValidationError("--receiver-name goes with --receiver-id or --uuid-file")
        }
        if receiverID != nil && uuidFile != nil { throw ValidationError("give --receiver-id or --uuid-file, not both") }
        if let netBeastReduceInterval, !(0...15).contains(netBeastReduceInterval) {
            throw ValidationError("--net-beast-reduce-interval must be 0…15 seconds")
        }
        let plus = FeedConnectorProtocol.beastReducePlusOut.rawValue
        if netConnector.contains(where: { $0.hasSuffix(":" + plus) }), uuidFile == nil,
           receiverID.flatMap({ ReceiverID.uuid($0) }) == nil {
            throw ValidationError("a \(plus) connector sends this receiver's UUID: give --uuid-file PATH (or --receiver-id UUID)")
        }
    }

    /// The feed options these flags ask for (empty when no feed is wanted); `position`: the
    /// receiver's, announced with `--receiver-id`.
    func feedOptions(position: Coordinate? = nil) throws -> FeedOptions {
        do {
            var options = try FeedOptions.commandLine(net: net || netOnly, bindAddress: netBindAddress,
                                                      beastOutPorts: netBeastOutPort, avrOutPorts: netRawOutPort, sbsOutPorts: netSBSPort,
                                                      beastInPorts: netBeastInPort, avrInPorts: netRawInPort,
                                                      beastReduceOutPorts: netBeastReduceOutPort,
                                                      connectors: netConnector, heartbeat: netHeartbeat)
            if let receiverID {
                let id = ReceiverID.parse(receiverID)
                options.announcement = ReceiverAnnouncement(id: id, name: receiverName, position: position)
            } else if let uuidFile {
                let id = try ReceiverUUIDFile.read(uuidFile)
                options.announcement = ReceiverAnnouncement(id: id, name: receiverName, position: position)
            }
            if let netBeastReduceInterval { options.beastReduceInterval = netBeastReduceInterval }
            if let netMergeWindow { options.mergeWindow = netMergeWindow }
            if let netMaxConnections {
                options.limits.maxConnections = netMaxConnections
                options.limits.maxConnectionsPerPort = min(options.limits.maxConnectionsPerPort, netMaxConnections)
            }
            if let netMaxReceivers { options.limits.maxReceivers = netMaxReceivers }
            options.avrTimestamps = netRawTimestamps
            if let netInputTimeout { options.limits.inputIdleTimeout = netInputTimeout }
            return options
        } catch {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
    }
}
