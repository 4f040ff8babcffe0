/// Aircraft operational status, TC 31 (BDS 6,5): capability classes, operational modes, the
/// ADS-B version number and the accuracy/integrity parameters the position messages need.
///
/// | ME bits | airborne (subtype 0) | surface (subtype 1) |
/// |---|---|---|
/// | 1–5 | type code = 31 | type code = 31 |
/// | 6–8 | subtype = 0 | subtype = 1 (2–7 reserved: nil) |
/// | 9–24 | capability class (CC), 16 bits | 9–20 CC (12 bits), 21–24 length/width code |
/// | 25–40 | operational mode (OM) | OM (33–40: GPS antenna offset in version 2) |
/// | 41–43 | version number: 0 DO-260, 1 DO-260A, 2 DO-260B, 3–7 reserved | same |
/// | 44 | NIC supplement (A) | same |
/// | 45–48 | NACp | same |
/// | 49–50 | BAQ (v1), GVA (v2) | reserved |
/// | 51–52 | SIL | same |
/// | 53 | NICbaro | track/heading flag (0 track angle, 1 heading) |
/// | 54 | HRD: 0 true north, 1 magnetic north | same |
/// | 55 | SIL supplement (v2): 0 per hour, 1 per sample | same |
/// | 56 | reserved | reserved |
///
/// Capability class codes (versions 1 and 2; the "service level" bits 9–10 must be 0, and
/// in version 1 also bits 13–14, or the CC subfield is not decoded):
///
/// | ME bit | airborne v1 | airborne v2 | surface v1 | surface v2 |
/// |---|---|---|---|---|
/// | 11 | NOT-ACAS (1 = not operational) | TCAS operational | POA | POA |
/// | 12 | CDTI | 1090ES IN | CDTI | 1090ES IN |
/// | 15 | ARV | ARV | B2 low (< 70 W) | B2 low |
/// | 16 | TS | TS | reserved | UAT IN |
/// | 17–18 | TC (0 none, 1 TC+0 only, 2 multiple) | TC | reserved | 17–19 NACv |
/// | 19 | reserved | UAT IN | reserved | — |
/// | 20 | reserved | reserved | reserved | NIC supplement C |
///
/// Operational mode codes (bits 25–26 are the OM format and must be 0): 27 TCAS/ACAS RA
/// active, 28 IDENT switch active, 29 receiving ATC services (reserved for it in v2),
/// 30 single antenna (v2), 31–32 system design assurance SDA (v2), 33–40 GPS antenna offset
/// (v2 surface: 33 left/right, 34–35 lateral 2 m steps, 36–40 longitudinal).
///
/// Version 0 (DO-260) defines only the subtype-0 CC/OM blocks in 4-bit groups that were never
/// given usable content; for version 0 (and the reserved versions 3–7, whose layout is not
/// known) only the subtype, the version and the raw CC/OM bits are decoded.
///
/// Spec: DO-260B §2.2.3.2.7.2, DO-260A §2.2.3.2.7.3; ICAO Doc 9871 §B.2.3.10 (version 1),
/// §C.2.3.10 and Tables C-23 to C-26, C-33 (version 2).
public struct OperationalStatus: Hashable, Sendable {
    // Stored: the ME field and the two values every reading depends on. Everything else is
    // read from `me` on access, so the message is a small plain value to build and copy.
    public let subtype: Subtype
    /// ADS-B version number, 0–7.
    public let version: Int
    /// The ME field as received.
    public let me: MessageField

    /// True for the versions whose fields this decoder knows (1 and 2).
    private var known: Bool { version == 1 || version == 2 }

    /// The raw capability class bits: ME 9–24 (airborne) or ME 9–20 (surface).
    public var capabilityClassBits: Int { subtype == .airborne ? me.int(9, 24) : me.int(9, 20) }
    /// The raw operational mode bits, ME 25–40.
    public var operationalModeBits: Int { me.int(25, 40) }
    /// Decoded capability classes (versions 1–2 with valid service-level bits).
    public var capabilities: Capabilities? { known ? Capabilities(me, subtype: subtype, version: version) : nil }
    /// Decoded operational modes (versions 1–2 with OM format 0).
    public var operationalMode: OperationalMode? { known ? OperationalMode(me, subtype: subtype, version: version) : nil }
    /// Aircraft/vehicle length and width code, 0–15 (surface, versions 1–2).
    public var lengthWidthCode: Int? { known && subtype == .surface ? me.int(21, 24) : nil }
    /// NIC supplement (NIC supplement A in version 2), used with the position type code.
    public var nicSupplementA: Bool? { known ? me.bit(44) : nil }
    public var nacP: Int? { known ? me.int(45, 48) : nil }
    /// Barometric altitude quality (version 1 airborne).
    public var barometricAltitudeQuality: Int? { version == 1 && subtype == .airborne ? me.int(49, 50) : nil }
    /// Geometric vertical accuracy (version 2 airborne).
    public var gva: Int? { version == 2 && subtype == .airborne ? me.int(49, 50) : nil }
    public var sil: Int? { known ? me.int(51, 52) : nil }
    /// Barometric altitude integrity (airborne).
    public var nicBaro: Int? { known && subtype == .airborne ? me.int(53, 53) : nil }
    /// What the surface position message's heading/track field carries (surface).
    public var surfaceAngle: SurfaceAngle? {
        known && subtype == .surface ? (me.bit(53) ? .heading : .track) : nil
    }
    /// Reference direction for the headings the aircraft reports.
    public var horizontalReference: HorizontalReference? {
        known ? (me.bit(54) ? .magneticNorth : .trueNorth) : nil
    }
    /// Whether `sil` is per flight hour or per sample (version 2).
    public var silSupplement: SILType? { version == 2 ? (me.bit(55) ? .persample : .perhour) : nil }

    /// Decodes a TC 31 ME field; nil for another type code or a reserved subtype (2–7).
    public init?(_ me: MessageField) {
        guard me.typeCode == 31, let subtype = Subtype(rawValue: me.int(6, 8)) else { return nil }
        self.subtype = subtype
        version = me.int(41, 43)
        self.me = me
    }

    /// Writes bds 6,5, the version and the quality values the message carries: NACp, SIL and
    /// its type (`unknown` in version 1), GVA, SDA, NICbaro, and NACv (version 2 surface).
    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(6, 5)
        fields.version = version
        if let nacP { fields.nacP = nacP }
        if let sil {
            fields.sil = sil
            fields.silType = silSupplement ?? .unknown
        }
        if let gva { fields.gva = gva }
        if let sda = operationalMode?.systemDesignAssurance { fields.sda = sda }
        if let nicBaro { fields.nicBaro = nicBaro }
        if case .surface(let surface)? = capabilities, let nacV = surface.nacV { fields.nacV = nacV }
    }

    public enum Subtype: Int, Hashable, Sendable {
        case airborne = 0
        case surface = 1
    }

    /// Horizontal reference direction (HRD, ME bit 54).
    public enum HorizontalReference: Int, Hashable, Sendable {
        case trueNorth = 0
        case magneticNorth = 1
    }

    /// Track angle/heading flag of the surface message (ME bit 53).
    public enum SurfaceAngle: Int, Hashable, Sendable {
        /// Surface position messages report the ground track.
        case track = 0
        /// Surface position messages report the aircraft heading.
        case heading = 1
    }

    /// The capability class (CC) subfield.
    public enum Capabilities: Hashable, Sendable {
        case airborne(Airborne)
        case surface(Surface)

        /// Decodes the CC subfield of a version 1 or 2 message; nil when the service-level
        /// bits are not 0 (another CC format) or for another version.
        init?(_ me: MessageField, subtype: Subtype, version: Int) {
            guard version == 1 || version == 2, me.isZero(9, 10) else { return nil }
            if version == 1 { guard me.isZero(13, 14) else { return nil } }
            let v2 = version == 2
            switch subtype {
            case .airborne:
                self = .airborne(Airborne(
                    tcasOperational: v2 ? me.bit(11) : !me.bit(11),
                    cockpitDisplay: v2 ? nil : me.bit(12),
                    es1090In: v2 ? me.bit(12) : nil,
                    airReferencedVelocity: me.bit(15),
                    targetStateReport: me.bit(16),
                    trajectoryChangeReport: me.int(17, 18),
                    uatIn: v2 ? me.bit(19) : nil))
            case .surface:
                self = .surface(Surface(
                    positionOffsetApplied: me.bit(11),
                    cockpitDisplay: v2 ? nil : me.bit(12),
                    es1090In: v2 ? me.bit(12) : nil,
                    b2Low: me.bit(15),
                    uatIn: v2 ? me.bit(16) : nil,
                    nacV: v2 ? me.int(17, 19) : nil,
                    nicSupplementC: v2 ? me.bit(20) : nil))
            }
        }

        /// Airborne capability classes (ME bits 9–24).
        public struct Airborne: Hashable, Sendable {
            /// TCAS/ACAS operational (v1 sends the inverted NOT-ACAS bit; this is already flipped).
            public var tcasOperational: Bool
            /// Cockpit display of traffic information operational (version 1 only).
            public var cockpitDisplay: Bool?
            /// Has a 1090 MHz extended squitter receiver (version 2 only).
            public var es1090In: Bool?
            /// Can send air-referenced velocity reports.
            public var airReferencedVelocity: Bool
            /// Can send target state reports.
            public var targetStateReport: Bool
            /// Trajectory change reports: 0 none, 1 TC+0 only, 2 multiple, 3 reserved.
            public var trajectoryChangeReport: Int
            /// Has a UAT receiver (version 2 only).
            public var uatIn: Bool?

            public init(tcasOperational: Bool, cockpitDisplay: Bool?, es1090In: Bool?, airReferencedVelocity: Bool,
                        targetStateReport: Bool, trajectoryChangeReport: Int, uatIn: Bool?) {
                self.tcasOperational = tcasOperational
                self.cockpitDisplay = cockpitDisplay
                self.es1090In = es1090In
                self.airReferencedVelocity = airReferencedVelocity
                self.targetStateReport = targetStateReport
                self.trajectoryChangeReport = trajectoryChangeReport
                self.uatIn = uatIn
            }
        }

        /// Surface capability classes (ME bits 9–20).
        public struct Surface: Hashable, Sendable {
            /// Position offset applied: the position sent is the ADS-B position reference point.
            public var positionOffsetApplied: Bool
            /// Cockpit display of traffic information operational (version 1 only).
            public var cockpitDisplay: Bool?
            /// Has a 1090 MHz extended squitter receiver (version 2 only).
            public var es1090In: Bool?
            /// Class B2 transmit power below 70 W.
            public var b2Low: Bool
            /// Has a UAT receiver (version 2 only).
            public var uatIn: Bool?
            /// NACv of the surface velocity (version 2 only).
            public var nacV: Int?
            /// NIC supplement C, used with the surface position type code (version 2 only).
            public var nicSupplementC: Bool?

            public init(positionOffsetApplied: Bool, cockpitDisplay: Bool?, es1090In: Bool?, b2Low: Bool,
                        uatIn: Bool?, nacV: Int?, nicSupplementC: Bool?) {
                self.positionOffsetApplied = positionOffsetApplied
                self.cockpitDisplay = cockpitDisplay
                self.es1090In = es1090In
                self.b2Low = b2Low
                self.uatIn = uatIn
                self.nacV = nacV
                self.nicSupplementC = nicSupplementC
            }
        }
    }

    /// The operational mode (OM) subfield, ME bits 25–40.
    public struct OperationalMode: Hashable, Sendable {
        public var tcasResolutionAdvisoryActive: Bool
        public var identSwitchActive: Bool
        /// Receiving ATC services (defined in version 1; reserved for it in version 2).
        public var receivingATCServices: Bool
        /// Single antenna (version 2).
        public var singleAntenna: Bool?
        /// System design assurance, 0–3 (version 2).
        public var systemDesignAssurance: Int?
        /// GPS antenna offset (version 2 surface).
        public var gpsAntennaOffset: GPSAntennaOffset?

        public init(tcasResolutionAdvisoryActive: Bool, identSwitchActive: Bool, receivingATCServices: Bool,
                    singleAntenna: Bool?, systemDesignAssurance: Int?, gpsAntennaOffset: GPSAntennaOffset?) {
            self.tcasResolutionAdvisoryActive = tcasResolutionAdvisoryActive
            self.identSwitchActive = identSwitchActive
            self.receivingATCServices = receivingATCServices
            self.singleAntenna = singleAntenna
            self.systemDesignAssurance = systemDesignAssurance
            self.gpsAntennaOffset = gpsAntennaOffset
        }

        /// nil when the OM format (bits 25–26) is not 0 or the version is not 1 or 2.
        init?(_ me: MessageField, subtype: Subtype, version: Int) {
            guard version == 1 || version == 2, me.isZero(25, 26) else { return nil }
            let v2 = version == 2
            tcasResolutionAdvisoryActive = me.bit(27)
            identSwitchActive = me.bit(28)
            receivingATCServices = me.bit(29)
            singleAntenna = v2 ? me.bit(30) : nil
            systemDesignAssurance = v2 ? me.int(31, 32) : nil
            gpsAntennaOffset = v2 && subtype == .surface
                ? GPSAntennaOffset(lateralCode: me.int(33, 35), longitudinalCode: me.int(36, 40)) : nil
        }
    }

    /// Position of the GPS antenna on the airframe (DO-260B §2.2.3.2.7.2.4.7, Doc 9871 Table C-33).
    public struct GPSAntennaOffset: Hashable, Sendable {
        /// ME bits 33–35: bit 33 is the side (0 left, 1 right), 34–35 the distance in 2 m steps.
        public var lateralCode: Int
        /// ME bits 36–40: 0 no data, 1 offset applied by the sensor, n ≥ 2 is (n − 1) × 2 m aft of the nose.
        public var longitudinalCode: Int

        public init(lateralCode: Int, longitudinalCode: Int) {
            self.lateralCode = lateralCode & 0b111
            self.longitudinalCode = longitudinalCode & 0b1_1111
        }

        /// Metres right (positive) or left (negative) of the longitudinal axis; nil for no data
        /// (code 000; code 100 is zero offset). Values are upper bounds, 6 m at most.
        public var lateralMeters: Int? {
            let distance = (lateralCode & 0b11) * 2
            if lateralCode & 0b100 != 0 { return distance }
            return distance == 0 ? nil : -distance
        }

        /// Metres aft of the nose; nil for no data or when the sensor applied the offset.
        public var longitudinalMeters: Int? {
            longitudinalCode >= 2 ? (longitudinalCode - 1) * 2 : nil
        }

        /// True when the position source already moved the position to the reference point.
        public var offsetAppliedBySensor: Bool { longitudinalCode == 1 }
    }
}
