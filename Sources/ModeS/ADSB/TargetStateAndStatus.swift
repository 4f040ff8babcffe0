/// Target state and status, TC 29 (BDS 6,2). The 2-bit subtype (ME bits 6–7) selects the
/// layout: 0 is the DO-260A (ADS-B version 1) message, 1 the DO-260B (version 2) message;
/// 2 and 3 are reserved and decode to nil.
///
/// Spec: DO-260A §2.2.3.2.7.1 and ICAO Doc 9871 §B.2.3.9 / Table B-2-98 (subtype 0);
/// DO-260B §2.2.3.2.7.1 and Doc 9871 §C.2.3.9 / Figure C-9 (subtype 1).
public enum TargetStateAndStatus: Hashable, Sendable {
    /// Subtype 0: DO-260A target altitude and target heading/track.
    case version1(Version1)
    /// Subtype 1: DO-260B selected altitude, QNH, selected heading and autopilot modes.
    case version2(Version2)

    /// Decodes a TC 29 ME field; nil for another type code, a reserved subtype or a
    /// subtype 0 message that breaks its fixed bits.
    public init?(_ me: MessageField) {
        guard me.typeCode == 29 else { return nil }
        switch me.int(6, 7) {
        case 0:
            guard let v1 = Version1(me) else { return nil }
            self = .version1(v1)
        case 1:
            guard let v2 = Version2(me) else { return nil }
            self = .version2(v2)
        default:
            return nil
        }
    }

    /// Writes bds 6,2 and the values the message carries: the MCP/FCU or FMS altitude, QNH,
    /// selected heading, autopilot modes (version 2, when the mode bits are valid), NACp,
    /// NICbaro, SIL and its supplement, and the emergency state (version 1).
    public func contribute(to fields: inout FieldSet) {
        fields.bds = BDS(6, 2)
        switch self {
        case .version1(let m): m.contribute(to: &fields)
        case .version2(let m): m.contribute(to: &fields)
        }
    }

    /// Whether a guidance target is being acquired or held (ME bits 14–15 and 38–39 of
    /// subtype 0).
    public enum ModeIndicator: Int, Hashable, Sendable {
        /// Climbing/descending or turning toward the target.
        case acquiring = 1
        /// The target has been captured and is being maintained.
        case capturingOrMaintaining = 2
    }

    // MARK: - Version 1 (subtype 0)

    /// The DO-260A target state and status message (TC 29, subtype 0).
    ///
    /// | ME bits | field | coding |
    /// |---|---|---|
    /// | 1–5 | type code = 29 | |
    /// | 6–7 | subtype = 0 | |
    /// | 8–9 | vertical data available / source | 0 none, 1 MCP/FCU, 2 holding altitude, 3 FMS/RNAV |
    /// | 10 | target altitude type | 0 flight level (pressure altitude), 1 MSL (baro-corrected) |
    /// | 11 | backward compatibility flag | must be 0 |
    /// | 12–13 | target altitude capability | 0 holding only, 1 + MCP/FCU, 2 + FMS/RNAV, 3 reserved |
    /// | 14–15 | vertical mode indicator | 0 unknown, 1 acquiring, 2 capturing/maintaining, 3 reserved |
    /// | 16–25 | target altitude | raw × 100 − 1000 ft; 1011–1023 invalid |
    /// | 26–27 | horizontal data available / source | 0 none, 1 MCP/FCU, 2 maintaining current, 3 FMS/RNAV |
    /// | 28–36 | target heading / track angle | 1 degree steps, 0–359; 360–511 invalid |
    /// | 37 | target heading / track indicator | 0 heading, 1 track angle |
    /// | 38–39 | horizontal mode indicator | as bits 14–15 |
    /// | 40–43 | NACp | |
    /// | 44 | NICbaro | |
    /// | 45–46 | SIL | |
    /// | 47–51 | reserved | |
    /// | 52 | ACAS not operational | 0 operational or unknown, 1 not operational |
    /// | 53 | ACAS resolution advisory active | |
    /// | 54–56 | emergency/priority status | `Emergency` |
    public struct Version1: Hashable, Sendable {
        /// Where the vertical target comes from; nil when no valid vertical target is available.
        public var verticalDataSource: VerticalDataSource?
        /// What the target altitude is referenced to.
        public var targetAltitudeType: TargetAltitudeType
        /// Which altitudes the aircraft can report; nil for the reserved code 3.
        public var targetAltitudeCapability: TargetAltitudeCapability?
        /// nil when unknown (0) or reserved (3).
        public var verticalMode: ModeIndicator?
        /// The next level-off altitude (or the altitude being held), ft; nil when no vertical
        /// data is available or the code is out of range.
        public var targetAltitude: Int?
        /// Where the horizontal target comes from; nil when no valid horizontal target is available.
        public var horizontalDataSource: HorizontalDataSource?
        /// Target heading or track angle, whole degrees 0–359; nil when no horizontal data is
        /// available or the code is invalid. `targetAngleType` says which.
        public var targetAngle: Int?
        public var targetAngleType: TargetAngleType
        /// nil when unknown (0) or reserved (3).
        public var horizontalMode: ModeIndicator?
        public var nacP: Int
        public var nicBaro: Int
        public var sil: Int
        /// True when ACAS is operational or its state is unknown (bit 52 clear).
        public var acasOperational: Bool
        /// True when an ACAS resolution advisory is active.
        public var acasResolutionAdvisoryActive: Bool
        public var emergency: Emergency

        /// Decodes a TC 29 subtype 0 field; nil for any other type code or subtype, or when the
        /// backward compatibility flag (bit 11) is set.
        public init?(_ me: MessageField) {
            guard me.typeCode == 29, me.int(6, 7) == 0, !me.bit(11) else { return nil }
            verticalDataSource = VerticalDataSource(rawValue: me.int(8, 9))
            targetAltitudeType = me.bit(10) ? .meanSeaLevel : .flightLevel
            targetAltitudeCapability = TargetAltitudeCapability(rawValue: me.int(12, 13))
            verticalMode = ModeIndicator(rawValue: me.int(14, 15))
            let altitude = me.int(16, 25)
            targetAltitude = verticalDataSource != nil && altitude <= 1010 ? altitude * 100 - 1000 : nil
            horizontalDataSource = HorizontalDataSource(rawValue: me.int(26, 27))
            let angle = me.int(28, 36)
            targetAngle = horizontalDataSource != nil && angle < 360 ? angle : nil
            targetAngleType = me.bit(37) ? .track : .heading
            horizontalMode = ModeIndicator(rawValue: me.int(38, 39))
            nacP = me.int(40, 43)
            nicBaro = me.int(44, 44)
            sil = me.int(45, 46)
            acasOperational = !me.bit(52)
            acasResolutionAdvisoryActive = me.bit(53)
            emergency = Emergency(rawValue: me.int(54, 56)) ?? .reserved
        }

        /// Writes the target altitude as `navAltitudeMCP` (MCP/FCU source) or `navAltitudeFMS`
        /// (FMS/RNAV source; a held altitude is neither), the target heading as `navHeading`
        /// (only when it is a heading, not a track angle), NACp, NICbaro, SIL (type unknown:
        /// version 1 has no SIL supplement) and the emergency state. Does not write bds.
        public func contribute(to fields: inout FieldSet) {
            switch verticalDataSource {
            case .mcpFCU: fields.navAltitudeMCP = targetAltitude
            case .fmsRNAV: fields.navAltitudeFMS = targetAltitude
            case .holdingAltitude, nil: break
            }
            if targetAngleType == .heading, let targetAngle { fields.navHeading = Double(targetAngle) }
            fields.nacP = nacP
            fields.nicBaro = nicBaro
            fields.sil = sil
            fields.silType = .unknown
            fields.emergency = emergency
        }
    }

    /// Source of the vertical target (subtype 0, ME bits 8–9).
    public enum VerticalDataSource: Int, Hashable, Sendable {
        /// Autopilot control panel selected value (MCP/FCU).
        case mcpFCU = 1
        /// Holding altitude.
        case holdingAltitude = 2
        /// FMS/RNAV system.
        case fmsRNAV = 3
    }

    /// Reference of the subtype 0 target altitude (ME bit 10).
    public enum TargetAltitudeType: Int, Hashable, Sendable {
        /// Pressure altitude (flight level).
        case flightLevel = 0
        /// Barometric corrected altitude (mean sea level).
        case meanSeaLevel = 1
    }

    /// What the aircraft can report as target altitude (subtype 0, ME bits 12–13).
    public enum TargetAltitudeCapability: Int, Hashable, Sendable {
        case holdingOnly = 0
        case holdingOrMCP = 1
        case holdingMCPOrFMS = 2
    }

    /// Source of the horizontal target (subtype 0, ME bits 26–27).
    public enum HorizontalDataSource: Int, Hashable, Sendable {
        /// Autopilot control panel selected value (MCP/FCU).
        case mcpFCU = 1
        /// Maintaining the current heading or track angle.
        case maintainingCurrent = 2
        /// FMS/RNAV system (track angle specified by the leg type).
        case fmsRNAV = 3
    }

    /// Whether the subtype 0 target angle is a heading or a track angle (ME bit 37).
    public enum TargetAngleType: Int, Hashable, Sendable {
        case heading = 0
        case track = 1
    }

    // MARK: - Version 2 (subtype 1)

    /// The DO-260B target state and status message (TC 29, subtype 1).
    ///
    /// | ME bits | field | coding |
    /// |---|---|---|
    /// | 1–5 | type code = 29 | |
    /// | 6–7 | subtype = 1 | |
    /// | 8 | SIL supplement | 0 per hour, 1 per sample |
    /// | 9 | selected altitude type | 0 MCP/FCU, 1 FMS |
    /// | 10–20 | selected altitude | 0 no data; else (raw − 1) × 32 ft |
    /// | 21–29 | barometric pressure setting | 0 no data; else 800 + (raw − 1) × 0.8 hPa |
    /// | 30 | selected heading status | 1 valid |
    /// | 31 | selected heading sign | 1 adds 180° |
    /// | 32–39 | selected heading | 180/256 degree steps |
    /// | 40–43 | NACp | |
    /// | 44 | NICbaro | |
    /// | 45–46 | SIL | |
    /// | 47 | status of MCP/FCU mode bits | 1 bits 48–50, 52, 54 are valid |
    /// | 48 | autopilot engaged | |
    /// | 49 | VNAV mode engaged | |
    /// | 50 | altitude hold mode | |
    /// | 51 | reserved for ADS-R flag | |
    /// | 52 | approach mode | |
    /// | 53 | TCAS/ACAS operational | |
    /// | 54 | LNAV mode engaged | |
    /// | 55–56 | reserved | |
    public struct Version2: Hashable, Sendable {
        /// Whether `sil` is a probability per flight hour or per sample.
        public var silSupplement: SILType
        /// Whether `selectedAltitude` comes from the MCP/FCU or the FMS.
        public var selectedAltitudeType: SelectedAltitudeType
        /// Selected altitude, ft (32 ft steps); nil when not available.
        public var selectedAltitude: Int?
        /// Barometric pressure setting (QNH), hPa (0.8 hPa steps); nil when not available.
        public var barometricPressureSetting: Double?
        /// Selected heading, degrees in [0, 360); nil when the status bit says invalid.
        public var selectedHeading: Double?
        public var nacP: Int
        public var nicBaro: Int
        public var sil: Int
        /// Autopilot, VNAV, altitude hold, approach and LNAV modes (and TCAS when operational);
        /// nil when the status of the mode bits (bit 47) says they are not populated.
        public var navModes: NavModes?
        /// TCAS/ACAS operational (bit 53, valid whatever bit 47 says).
        public var tcasOperational: Bool

        /// Decodes a TC 29 subtype 1 field; nil for any other type code or subtype.
        public init?(_ me: MessageField) {
            guard me.typeCode == 29, me.int(6, 7) == 1 else { return nil }
            silSupplement = me.bit(8) ? .persample : .perhour
            selectedAltitudeType = me.bit(9) ? .fms : .mcpFCU
            let altitude = me.int(10, 20)
            selectedAltitude = altitude == 0 ? nil : (altitude - 1) * 32
            let baro = me.int(21, 29)
            // 800 + (raw − 1) × 0.8 computed in tenths so the result is the nearest Double.
            barometricPressureSetting = baro == 0 ? nil : Double(7992 + 8 * baro) / 10
            selectedHeading = me.bit(30) ? Double(me.int(31, 39)) * 180 / 256 : nil
            nacP = me.int(40, 43)
            nicBaro = me.int(44, 44)
            sil = me.int(45, 46)
            tcasOperational = me.bit(53)
            if me.bit(47) {
                var modes: NavModes = []
                if me.bit(48) { modes.insert(.autopilot) }
                if me.bit(49) { modes.insert(.vnav) }
                if me.bit(50) { modes.insert(.altitudeHold) }
                if me.bit(52) { modes.insert(.approach) }
                if me.bit(53) { modes.insert(.tcas) }
                if me.bit(54) { modes.insert(.lnav) }
                navModes = modes
            } else {
                navModes = nil
            }
        }

        /// Writes the selected altitude as `navAltitudeMCP` or `navAltitudeFMS` (by its type),
        /// `navQNH`, `navHeading`, `navModes` (when valid), NACp, NICbaro, SIL and its
        /// supplement. Does not write bds.
        public func contribute(to fields: inout FieldSet) {
            switch selectedAltitudeType {
            case .mcpFCU: fields.navAltitudeMCP = selectedAltitude
            case .fms: fields.navAltitudeFMS = selectedAltitude
            }
            fields.navQNH = barometricPressureSetting
            fields.navHeading = selectedHeading
            fields.navModes = navModes
            fields.nacP = nacP
            fields.nicBaro = nicBaro
            fields.sil = sil
            fields.silType = silSupplement
        }
    }

    /// Source of the subtype 1 selected altitude (ME bit 9).
    public enum SelectedAltitudeType: Int, Hashable, Sendable {
        /// Mode control panel / flight control unit.
        case mcpFCU = 0
        /// Flight management system.
        case fms = 1
    }
}
