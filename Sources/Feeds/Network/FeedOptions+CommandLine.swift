/// A `flytracker run` network option that does not parse.
public struct FeedOptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension FeedOptions {
    /// The feed options of `flytracker run`:
    /// `--net` turns on the standard ports; each `--net-…-port LIST` (comma-separated, `0`
    /// disables) replaces that service's ports whether or not `--net` is given; each
    /// `--net-connector HOST:PORT:PROTOCOL` adds an outbound connection.
    public static func commandLine(net: Bool, bindAddress: String? = nil,
                                   beastOutPorts: String? = nil, avrOutPorts: String? = nil,
                                   sbsOutPorts: String? = nil, beastInPorts: String? = nil,
                                   avrInPorts: String? = nil, beastReduceOutPorts: String? = nil, connectors: [String] = [],
                                   heartbeat: Double? = nil) throws(FeedOptionError) -> FeedOptions {
        var o = net ? FeedOptions.standard : FeedOptions()
        if let bindAddress { o.bindHost = bindAddress }
        func ports(_ text: String?, _ option: String, _ keep: [Int]) throws(FeedOptionError) -> [Int] {
            guard let text else { return keep }
            guard let list = FeedOptions.ports(text) else {
                throw FeedOptionError("\(option): '\(text)' is not a port or comma-separated list of ports (0 disables)")
            }
            return list
        }
        o.beastOutPorts = try ports(beastOutPorts, "--net-bo-port", o.beastOutPorts)
        o.avrOutPorts = try ports(avrOutPorts, "--net-ro-port", o.avrOutPorts)
        o.sbsOutPorts = try ports(sbsOutPorts, "--net-sbs-port", o.sbsOutPorts)
        o.beastInPorts = try ports(beastInPorts, "--net-bi-port", o.beastInPorts)
        o.avrInPorts = try ports(avrInPorts, "--net-ri-port", o.avrInPorts)
        o.beastReduceOutPorts = try ports(beastReduceOutPorts, "--net-beast-reduce-out-port", o.beastReduceOutPorts)
        for text in connectors {
            guard let spec = FeedConnectorSpec(text) else {
                let kinds = FeedConnectorProtocol.allCases.map(\.rawValue).joined(separator: ", ")
                throw FeedOptionError("--net-connector: '\(text)' is not HOST:PORT:PROTOCOL (PROTOCOL one of \(kinds))")
            }
            o.connectors.append(spec)
        }
        if let heartbeat {
            guard heartbeat >= 0, heartbeat.isFinite else { throw FeedOptionError("--net-heartbeat: must be seconds ≥ 0") }
            o.heartbeatInterval = heartbeat == 0 ? nil : heartbeat
        }
        return o
    }
}
