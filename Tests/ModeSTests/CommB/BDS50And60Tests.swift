import Testing
@testable import ModeS

@Suite("Comm-B 5,0 track and turn, 6,0 heading and speed")
struct BDS50And60Tests {
    static let bds50 = "A80006ACF9363D3BBF9CE98F1E1D"
    static let bds60 = "A80004AAA74A072BFDEFC1D5CB4F"

    @Test("5,0 validator rejects a clear status bit with a non-zero value", arguments: [1, 12, 24, 35, 46])
    func bds50StatusMismatch(statusBit: Int) throws {
        let mb = try mbField(Self.bds50)
        #expect(BDS50.isValid(mb))
        #expect(!BDS50.isValid(MBFieldBuilder(mb).setting(statusBit, false).field))
    }

    @Test("6,0 validator rejects a clear status bit with a non-zero value", arguments: [1, 13, 24, 35, 46])
    func bds60StatusMismatch(statusBit: Int) throws {
        let mb = try mbField(Self.bds60)
        #expect(BDS60.isValid(mb))
        #expect(!BDS60.isValid(MBFieldBuilder(mb).setting(statusBit, false).field))
    }

    @Test("5,0 signed fields: sign bit then magnitude − 2^width; track and roll scales")
    func bds50Signed() throws {
        // Roll +45° (256 × 45/256); track sign set, magnitude 512 → −90° → 270°;
        // track rate −1 °/s (−32 × 8/256); ground speed and TAS 2 kt per count.
        let mb = MBFieldBuilder().setting(1).settingSigned(sign: 2, 3, 11, to: 256)
            .setting(12).settingSigned(sign: 13, 14, 23, to: -512)
            .setting(24).setting(25, 34, to: 200)
            .setting(35).settingSigned(sign: 36, 37, 45, to: -32)
            .setting(46).setting(47, 56, to: 210).field
        let r = BDS50(mb)
        #expect(r.roll == 45)
        #expect(r.track == 270)
        #expect(r.groundSpeed == 400)
        #expect(r.trackRate == -1)
        #expect(r.trueAirspeed == 420)
        // Sign set with zero magnitude is the most negative value: −180° track → 180°.
        let south = MBFieldBuilder().setting(12).setting(13).field
        #expect(BDS50(south).track == 180)
    }

    @Test("5,0 values are nil when their status bit is clear")
    func bds50Absent() {
        let r = BDS50(MBFieldBuilder().setting(46).setting(47, 56, to: 100).field)
        #expect(r.roll == nil && r.track == nil && r.groundSpeed == nil && r.trackRate == nil)
        #expect(r.trueAirspeed == 200)
        var fields = FieldSet()
        r.contribute(to: &fields)
        #expect(fields.tas == 200)
        #expect(fields.gs == nil && fields.roll == nil && fields.track == nil)
    }

    @Test("5,0 validator rejects implausible values")
    func bds50Implausible() {
        let roll = { (raw: Int) in MBFieldBuilder().setting(1).settingSigned(sign: 2, 3, 11, to: raw).field }
        #expect(BDS50.isValid(roll(284)))     // 49.9°
        #expect(!BDS50.isValid(roll(290)))    // 51°
        #expect(!BDS50.isValid(roll(-290)))
        let speeds = { (gs: UInt64, tas: UInt64) in
            MBFieldBuilder().setting(24).setting(25, 34, to: gs).setting(46).setting(47, 56, to: tas).field
        }
        #expect(BDS50.isValid(speeds(240, 220)))     // 480 / 440 kt
        #expect(!BDS50.isValid(speeds(240, 100)))    // 480 / 200 kt: 280 kt of wind
        #expect(!BDS50.isValid(speeds(400, 300)))    // ground speed 800 kt
        #expect(!BDS50.isValid(speeds(300, 310)))    // TAS 620 kt
        let rate = MBFieldBuilder().setting(35).settingSigned(sign: 36, 37, 45, to: 352).field   // 11 °/s
        #expect(!BDS50.isValid(rate))
    }

    @Test("6,0 scales: heading 90/512°, IAS 1 kt, Mach 0.004, rates 32 ft/min")
    func bds60Scales() throws {
        let mb = MBFieldBuilder().setting(1).settingSigned(sign: 2, 3, 12, to: -256)
            .setting(13).setting(14, 23, to: 250)
            .setting(24).setting(25, 34, to: 195)
            .setting(35).settingSigned(sign: 36, 37, 45, to: -50)
            .setting(46).settingSigned(sign: 47, 48, 56, to: -45).field
        let r = BDS60(mb)
        #expect(r.magneticHeading == 315)
        #expect(r.indicatedAirspeed == 250)
        #expect(abs(try #require(r.mach) - 0.78) < 1e-9)
        #expect(r.baroRate == -1600)
        #expect(r.inertialVerticalVelocity == -1440)
    }

    @Test("6,0 validator rejects implausible values")
    func bds60Implausible() {
        let b = MBFieldBuilder()
        #expect(!BDS60.isValid(b.setting(13).setting(14, 23, to: 520).field))      // IAS 520 kt
        #expect(!BDS60.isValid(b.setting(24).setting(25, 34, to: 260).field))      // Mach 1.04
        #expect(!BDS60.isValid(b.setting(35).settingSigned(sign: 36, 37, 45, to: 200).field))   // 6400 ft/min
        // Barometric and inertial rates 3200 ft/min apart.
        #expect(!BDS60.isValid(b.setting(35).settingSigned(sign: 36, 37, 45, to: 50)
            .setting(46).settingSigned(sign: 47, 48, 56, to: -50).field))
        // IAS 300 kt at Mach 0.30 implies a pressure above sea level's.
        #expect(!BDS60.isValid(b.setting(13).setting(14, 23, to: 300).setting(24).setting(25, 34, to: 75).field))
        // IAS 100 kt at Mach 0.9: a pressure ratio under 0.08 (above 57000 ft).
        #expect(!BDS60.isValid(b.setting(13).setting(14, 23, to: 100).setting(24).setting(25, 34, to: 225).field))
        // IAS 250 kt at Mach 0.78: about FL350.
        #expect(BDS60.isValid(b.setting(13).setting(14, 23, to: 250).setting(24).setting(25, 34, to: 195).field))
    }

    @Test("A 6,0 whose bits also pass the 5,0 validator is inferred as 6,0")
    func headingAndSpeedOver5_0() throws {
        // Real DF21 reply of 4CA6E3 (pyModeS sample data): read as 6,0 it is heading 45.2°,
        // IAS 279 kt, Mach 0.688, climbing 1792 ft/min; the same aircraft's 5,0 replies in that
        // recording report track 44.8° and TAS 412 kt, which fits. Read as 5,0 it would be a
        // 22.5° bank with track 229° and no TAS.
        let mb = try mbField("A8000BA4901A2F2B21C000ACC6CE")
        #expect(BDS50.isValid(mb))
        #expect(BDS60.isValid(mb))
        let register = try #require(CommB.infer(mb))
        guard case .headingAndSpeed(let r) = register else {
            Issue.record("expected 6,0, got \(register.bds)"); return
        }
        #expect(r.indicatedAirspeed == 279)
        #expect(r.baroRate == 1792)
    }

    /// An aircraft at about FL350: TAS 460 kt, 40 kt tailwind, heading 012° magnetic, track
    /// 017° true, wings level, IAS 262 kt, Mach 0.80, climbing 64 ft/min.
    @Test("5,0 and 6,0 of the same aircraft state are each inferred as themselves")
    func sameStateBothRegisters() throws {
        let trackRaw = 97     // 17.05°
        let bds50 = MBFieldBuilder().setting(1).settingSigned(sign: 2, 3, 11, to: 3)
            .setting(12).settingSigned(sign: 13, 14, 23, to: trackRaw)
            .setting(24).setting(25, 34, to: 250)
            .setting(35).settingSigned(sign: 36, 37, 45, to: 1)
            .setting(46).setting(47, 56, to: 230).field
        let bds60 = MBFieldBuilder().setting(1).settingSigned(sign: 2, 3, 12, to: 68)
            .setting(13).setting(14, 23, to: 262)
            .setting(24).setting(25, 34, to: 200)
            .setting(35).settingSigned(sign: 36, 37, 45, to: 2)
            .setting(46).settingSigned(sign: 47, 48, 56, to: 1).field
        #expect(CommB.infer(bds50)?.bds == BDS(5, 0))
        #expect(CommB.infer(bds60)?.bds == BDS(6, 0))
        // Where the other reading is valid at all, it scores lower.
        for (mb, right) in [(bds50, BDS(5, 0)), (bds60, BDS(6, 0))] {
            let c = CommB.candidates(mb)
            #expect(c.first?.register.bds == right)
            if c.count > 1 { #expect(c[0].score > c[1].score) }
        }
    }
}
