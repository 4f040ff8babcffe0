import ArgumentParser
import Feeds

/// The network feeds of `run` (ports as readsb and dump1090-fa use them).
struct FeedCommandOptions: ParsableArguments {
    @Flag(help: "Open the network feeds on their standard ports (Beast 30005, AVR 30002, SBS 30003 out; Beast 30004,30104 and AVR 30001 in).")
    var net = false

    @Flag(help: "No radio: only frames arriving on the Beast/AVR input ports (implies --net).")
    var netOnly = false

    @Option(name: .customLong("net-bind-address"), help: "Address the feed ports listen on (default 0.0.0.0).")
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

    @Option(name: .customLong("net-connector"), help: "Outbound connection HOST:PORT:PROTOCOL (beast_out, beast_in, raw_out, raw_in, sbs_out); repeatable.")
    var netConnector: [String] = []

    @Option(name: .customLong("net-heartbeat"), help: "Seconds between heartbeats on idle outputs (0 = none; default 60).")
    var netHeartbeat: Double?

    /// The feed options these flags ask for (empty when no feed is wanted).
    func feedOptions() throws -> FeedOptions {
        do {
            return try FeedOptions.commandLine(net: net || netOnly, bindAddress: netBindAddress,
                                               beastOutPorts: netBeastOutPort, avrOutPorts: netRawOutPort, sbsOutPorts: netSBSPort,
                                               beastInPorts: netBeastInPort, avrInPorts: netRawInPort,
                                               connectors: netConnector, heartbeat: netHeartbeat)
        } catch {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
    }
}
