import Testing
@testable import ModeS

/// 4,4 and 4,5 have no published frames in the vector set, so these build MB fields from the
/// Doc 9871 layout and check the decoded values against the table scales.
@Suite("Comm-B 4,4 and 4,5 meteorological reports")
struct BDS44And45Tests {
    /// FOM GNSS, wind 42 kt from 270° (384 × 180/256), SAT −40.25 °C, 250 hPa, light
    /// turbulence, humidity 50 %.
    static let routine = MBFieldBuilder().setting(1, 4, to: 2).setting(5).setting(6, 14, to: 42)
        .setting(15, 23, to: 384).settingSigned(sign: 24, 25, 34, to: -161)
        .setting(35).setting(36, 46, to: 250).setting(47).setting(48, 49, to: 1)
        .setting(50).setting(51, 56, to: 32)

    @Test("4,4 fields decode with the table scales")
    func routineValues() throws {
        let mb = Self.routine.field
        #expect(BDS44.isValid(mb))
        let r = BDS44(mb)
        #expect(r.figureOfMerit == 2)
        #expect(r.windSpeed == 42)
        #expect(r.windDirection == 270)
        #expect(r.staticAirTemperature == -40.25)
        #expect(r.staticPressure == 250)
        #expect(r.turbulence == .light)
        #expect(r.humidity == 50)
        var fields = FieldSet()
        r.contribute(to: &fields)
        #expect(fields.bds == BDS(4, 4))
        #expect(fields.windSpeed == 42)
        #expect(fields.windDirection == 270)
        #expect(fields.oat == -40.25)
        #expect(fields.staticPressure == 250)
        #expect(fields.humidity == 50)
    }

    @Test("4,4 validator: figure of merit 1–4, wind present, status bits consistent")
    func routineValidator() {
        #expect(!BDS44.isValid(Self.routine.setting(1, 4, to: 0).field))
        #expect(!BDS44.isValid(Self.routine.setting(1, 4, to: 5).field))
        #expect(!BDS44.isValid(Self.routine.setting(5, false).field))
        #expect(!BDS44.isValid(Self.routine.setting(35, false).field))
        #expect(!BDS44.isValid(Self.routine.setting(47, false).field))
        #expect(!BDS44.isValid(Self.routine.setting(50, false).field))
        #expect(!BDS44.isValid(Self.routine.setting(6, 14, to: 300).field))   // 300 kt wind
    }

    @Test("4,4 validator: temperature must fit the pressure (ISA at 250 hPa is about −52 °C)")
    func routineTemperatureVsPressure() {
        #expect(!BDS44.isValid(Self.routine.settingSigned(sign: 24, 25, 34, to: 40).field))   // +10 °C at 250 hPa
        #expect(BDS44.isValid(Self.routine.settingSigned(sign: 24, 25, 34, to: -200).field))  // −50 °C
    }

    /// Moderate turbulence, nil wind shear, severe icing, SAT −12.5 °C, 850 hPa, radio height 1600 ft.
    static let hazard = MBFieldBuilder().setting(1).setting(2, 3, to: 2).setting(4)
        .setting(10).setting(11, 12, to: 3).setting(16).settingSigned(sign: 17, 18, 26, to: -50)
        .setting(27).setting(28, 38, to: 850).setting(39).setting(40, 51, to: 100)

    @Test("4,5 fields decode with the table scales; absent hazards are nil")
    func hazardValues() throws {
        let mb = Self.hazard.field
        #expect(BDS45.isValid(mb))
        let r = BDS45(mb)
        #expect(r.turbulence == .moderate)
        #expect(r.windShear == .nilLevel)
        #expect(r.microburst == nil)
        #expect(r.icing == .severe)
        #expect(r.wakeVortex == nil)
        #expect(r.staticAirTemperature == -12.5)
        #expect(r.staticPressure == 850)
        #expect(r.radioHeight == 1600)
        var fields = FieldSet()
        r.contribute(to: &fields)
        #expect(fields.oat == -12.5)
        #expect(fields.staticPressure == 850)
    }

    @Test("4,5 validator rejects status/value mismatches and reserved bits 52–56",
          arguments: [1, 10, 16, 27, 39])
    func hazardStatus(statusBit: Int) {
        #expect(!BDS45.isValid(Self.hazard.setting(statusBit, false).field))
    }

    @Test("4,5 validator rejects reserved bits", arguments: 52...56)
    func hazardReserved(bit: Int) {
        #expect(!BDS45.isValid(Self.hazard.setting(bit).field))
    }
}
