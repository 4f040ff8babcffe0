import Demod
import Foundation
import ModeS

/// The frames an aircraft sends, built with the core's encoders from its state at the moment
/// of sending.
extension SimulatedAircraft {
    /// The frame of a message kind; `position` and `altitude` are the aircraft's at the time of
    /// sending, `cprFormat` the even/odd turn of position messages and `register` the Comm-B
    /// register of DF20/21 (2,0, 5,0 or 6,0). Nil when the kind does not apply (airborne
    /// messages on the ground and the reverse).
    func frame(_ kind: SimulatedMessage, position: Coordinate, altitude: Double, cprFormat: CPRFormat,
               register: BDS = BDS(2, 0)) -> Frame? {
        let capability = onGround ? 4 : 5
        let baro = Int(altitude.rounded())
        switch kind {
        case .airbornePosition:
            guard !onGround,
                  let me = MessageField.airbornePosition(typeCode: 11, altitude: baro, position: position, format: cprFormat)
            else { return nil }
            return Frame.extendedSquitter(address: address, capability: capability, me: me)
        case .surfacePosition:
            guard onGround,
                  let me = MessageField.surfacePosition(
                      typeCode: 7, groundSpeed: groundSpeed, track: groundSpeed > 0.5 ? track : nil,
                      position: position, format: cprFormat)
            else { return nil }
            return Frame.extendedSquitter(address: address, capability: capability, me: me)
        case .velocity:
            guard !onGround else { return nil }
            let radians = SkyGeodesy.radians(track)
            let me = MessageField.airborneVelocity(
                velocityEast: groundSpeed * sin(radians), velocityNorth: groundSpeed * cos(radians),
                verticalRate: Int(verticalRate.rounded()), verticalRateSource: .barometric,
                geomDelta: geometricDelta, nacV: 1)
            return Frame.extendedSquitter(address: address, capability: capability, me: me)
        case .identification:
            guard let me = MessageField.identification(category: category, callsign: callsign) else { return nil }
            return Frame.extendedSquitter(address: address, capability: capability, me: me)
        case .operationalStatus:
            guard !onGround else { return nil }
            let airliner = self.kind == .airliner
            let capabilities = OperationalStatus.Capabilities.Airborne(
                tcasOperational: airliner, cockpitDisplay: nil, es1090In: airliner, airReferencedVelocity: false,
                targetStateReport: airliner, trajectoryChangeReport: 0, uatIn: false)
            let mode = OperationalStatus.OperationalMode(
                tcasResolutionAdvisoryActive: false, identSwitchActive: false, receivingATCServices: false,
                singleAntenna: !airliner, systemDesignAssurance: airliner ? 2 : 1, gpsAntennaOffset: nil)
            let me = MessageField.operationalStatusAirborne(
                capabilities: capabilities, mode: mode, nicSupplementA: false, nacP: airliner ? 9 : 8,
                gva: 2, sil: 3, nicBaro: 1)
            return Frame.extendedSquitter(address: address, capability: capability, me: me)
        case .allCall:
            return Frame.allCall(address: address, capability: capability)
        case .altitudeReply:
            return Frame.surveillanceAltitude(address: address, altitude: baro, flightStatus: onGround ? 1 : 0)
        case .identityReply:
            return Frame.surveillanceIdentity(address: address, squawk: squawk, flightStatus: onGround ? 1 : 0)
        case .commBAltitude:
            guard let mb = commB(register) else { return nil }
            return Frame.commBAltitude(address: address, altitude: baro, mb: mb, flightStatus: onGround ? 1 : 0)
        case .commBIdentity:
            guard let mb = commB(register) else { return nil }
            return Frame.commBIdentity(address: address, squawk: squawk, mb: mb, flightStatus: onGround ? 1 : 0)
        }
    }

    /// The MB field of a Comm-B register from the current state (no wind: air and ground
    /// speed agree, heading equals track).
    func commB(_ register: BDS) -> MessageField? {
        switch (register.major, register.minor) {
        case (2, 0):
            return MessageField.bds20(callsign: callsign)
        case (5, 0):
            // Coordinated turn: tan(roll) = ω·V/g.
            let speed = groundSpeed * 1852 / 3600
            let roll = SkyGeodesy.degrees(atan(SkyGeodesy.radians(turnRate) * speed / 9.80665))
            return MessageField.bds50(roll: roll, track: track, groundSpeed: groundSpeed, trackRate: turnRate,
                                      trueAirspeed: groundSpeed)
        case (6, 0):
            let air = AirData(altitude: altitude, trueAirspeed: groundSpeed)
            let rate = Int(verticalRate.rounded())
            return MessageField.bds60(magneticHeading: track, indicatedAirspeed: Int(air.calibratedAirspeed.rounded()),
                                      mach: air.mach, baroRate: rate, inertialVerticalVelocity: rate)
        default:
            return nil
        }
    }
}

/// International Standard Atmosphere air data for a pressure altitude and true airspeed
/// (ICAO Doc 7488): Mach from the speed of sound at the altitude's temperature, calibrated
/// airspeed from the impact pressure (subsonic compressible flow).
struct AirData {
    var mach: Double
    var calibratedAirspeed: Double

    static let seaLevelSpeedOfSound = 661.4786   // kt
    static let seaLevelTemperature = 288.15       // K
    static let tropopause = 36_089.24             // ft

    init(altitude feet: Double, trueAirspeed: Double) {
        let h = min(max(feet, -2000), 65_000)
        let temperature = AirData.seaLevelTemperature - 0.0019812 * min(h, AirData.tropopause)
        let theta = temperature / AirData.seaLevelTemperature
        // Pressure ratio δ: troposphere power law, then exponential above the tropopause.
        let delta = h <= AirData.tropopause
            ? pow(theta, 5.255_88)
            : 0.223_361 * exp(-(h - AirData.tropopause) / 20_805.8)
        mach = trueAirspeed / (AirData.seaLevelSpeedOfSound * theta.squareRoot())
        let impact = delta * (pow(1 + 0.2 * mach * mach, 3.5) - 1)
        calibratedAirspeed = AirData.seaLevelSpeedOfSound * (5 * (pow(impact + 1, 2.0 / 7) - 1)).squareRoot()
    }
}
