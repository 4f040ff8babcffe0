/// Operational status ME fields for transmission: TC 31, airborne (subtype 0), version 2
/// (DO-260B §2.2.3.2.7.2; the layout table is on `OperationalStatus`).
extension MessageField {
    /// An airborne version 2 operational status message:
    ///
    /// | ME bits | from |
    /// |---|---|
    /// | 1–5, 6–8 | 31, subtype 0 |
    /// | 9–10 | 0 (CC format) |
    /// | 11 / 12 | `capabilities.tcasOperational` / `es1090In` |
    /// | 15 / 16 / 17–18 / 19 | ARV / TS / TC / UAT IN |
    /// | 25–26 | 0 (OM format) |
    /// | 27 / 28 / 30 / 31–32 | RA active / IDENT / single antenna / SDA (`mode`) |
    /// | 33–40 | `mode.gpsAntennaOffset` (0 when nil; some transponders send it airborne too) |
    /// | 41–43 | version 2 |
    /// | 44 / 45–48 / 49–50 / 51–52 | NIC supplement A / NACp / GVA / SIL |
    /// | 53 / 54 / 55 | NICbaro / HRD / SIL supplement (per sample = 1) |
    ///
    /// Optional fields that are nil are sent as 0; numeric fields are masked to their width.
    public static func operationalStatusAirborne(
        capabilities: OperationalStatus.Capabilities.Airborne,
        mode: OperationalStatus.OperationalMode,
        nicSupplementA: Bool, nacP: Int, gva: Int, sil: Int, nicBaro: Int,
        horizontalReference: OperationalStatus.HorizontalReference = .trueNorth,
        silSupplement: SILType = .perhour
    ) -> MessageField {
        var field = MessageField(0)
            .setting(1, 5, to: 31)
            .setting(6, 8, to: UInt64(OperationalStatus.Subtype.airborne.rawValue))
            .setting(11, capabilities.tcasOperational)
            .setting(12, capabilities.es1090In ?? false)
            .setting(15, capabilities.airReferencedVelocity)
            .setting(16, capabilities.targetStateReport)
            .setting(17, 18, to: UInt64(truncatingIfNeeded: capabilities.trajectoryChangeReport))
            .setting(19, capabilities.uatIn ?? false)
            .setting(27, mode.tcasResolutionAdvisoryActive)
            .setting(28, mode.identSwitchActive)
            .setting(29, mode.receivingATCServices)
            .setting(30, mode.singleAntenna ?? false)
            .setting(31, 32, to: UInt64(truncatingIfNeeded: mode.systemDesignAssurance ?? 0))
        if let offset = mode.gpsAntennaOffset {
            field = field.setting(33, 35, to: UInt64(truncatingIfNeeded: offset.lateralCode))
                .setting(36, 40, to: UInt64(truncatingIfNeeded: offset.longitudinalCode))
        }
        return field
            .setting(41, 43, to: 2)
            .setting(44, nicSupplementA)
            .setting(45, 48, to: UInt64(truncatingIfNeeded: nacP))
            .setting(49, 50, to: UInt64(truncatingIfNeeded: gva))
            .setting(51, 52, to: UInt64(truncatingIfNeeded: sil))
            .setting(53, 53, to: UInt64(truncatingIfNeeded: nicBaro))
            .setting(54, horizontalReference == .magneticNorth)
            .setting(55, silSupplement == .persample)
    }
}
