/// The kinds of transmission the simulated aircraft make, with their nominal intervals
/// (DO-260B §2.2.3.3.1 squitter rates; Annex 10 Vol IV §3.1.2.8.5 acquisition squitter).
public enum SimulatedMessage: String, Sendable, CaseIterable, Hashable {
    /// DF17 TC 11 airborne position, even/odd alternating, every 0.4–0.6 s.
    case airbornePosition = "airborne_position"
    /// DF17 TC 7 surface position: every 0.4–0.6 s moving, 4.8–5.2 s stopped.
    case surfacePosition = "surface_position"
    /// DF17 TC 19 airborne velocity, every 0.4–0.6 s.
    case velocity
    /// DF17 TC 4/3/2/1 identification and category: every 4.8–5.2 s (9.8–10.2 s stopped on
    /// the ground).
    case identification
    /// DF17 TC 31 operational status (airborne, version 2), every 2.4–2.6 s.
    case operationalStatus = "operational_status"
    /// DF11 acquisition squitter (IC 0), every 0.8–1.2 s.
    case allCall = "all_call"
    /// DF4 surveillance altitude reply to the radar.
    case altitudeReply = "altitude_reply"
    /// DF5 surveillance identity reply.
    case identityReply = "identity_reply"
    /// DF20 Comm-B altitude reply (BDS 2,0, 5,0 or 6,0).
    case commBAltitude = "comm_b_altitude"
    /// DF21 Comm-B identity reply.
    case commBIdentity = "comm_b_identity"

    /// The downlink format the message is sent in.
    public var downlinkFormat: Int {
        switch self {
        case .airbornePosition, .surfacePosition, .velocity, .identification, .operationalStatus: 17
        case .allCall: 11
        case .altitudeReply: 4
        case .identityReply: 5
        case .commBAltitude: 20
        case .commBIdentity: 21
        }
    }

    /// The squitters sent on their own schedule (the rest are replies to the radar).
    public static let squitters: [SimulatedMessage] = [
        .airbornePosition, .surfacePosition, .velocity, .identification, .operationalStatus, .allCall,
    ]
}
