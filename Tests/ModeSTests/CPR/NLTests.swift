import Foundation
import Testing
@testable import ModeS

@Suite("CPR NL function")
struct NLTests {
    /// DO-260B §A.1.7.2.d, the closed formula the table must match.
    static func closedFormula(_ latitude: Double) -> Int {
        let magnitude = abs(latitude)
        if magnitude == 0 { return 59 }
        if magnitude == 87 { return 2 }
        if magnitude > 87 { return 1 }
        let a = 1 - cos(Double.pi / (2 * 15))
        let c = cos(Double.pi / 180 * magnitude)
        return Int(floor(2 * Double.pi / acos(1 - a / (c * c))))
    }

    /// Transition latitudes of DO-260B Table A-21, as printed (8 decimals): NL falls from
    /// 59 − k to 58 − k at `published[k]`.
    static let published: [Double] = [
        10.47047130, 14.82817437, 18.18626357, 21.02939493, 23.54504487, 25.82924707,
        27.93898710, 29.91135686, 31.77209708, 33.53993436, 35.22899598, 36.85025108,
        38.41241892, 39.92256684, 41.38651832, 42.80914012, 44.19454951, 45.54626723,
        46.86733252, 48.16039128, 49.42776439, 50.67150166, 51.89342469, 53.09516153,
        54.27817472, 55.44378444, 56.59318756, 57.72747354, 58.84763776, 59.95459277,
        61.04917774, 62.13216659, 63.20427479, 64.26616523, 65.31845310, 66.36171008,
        67.39646774, 68.42322022, 69.44242631, 70.45451075, 71.45986473, 72.45884545,
        73.45177442, 74.43893416, 75.42056257, 76.39684391, 77.36789461, 78.33374083,
        79.29428225, 80.24923213, 81.19801349, 82.13956981, 83.07199445, 83.99173563,
        84.89166191, 85.75541621, 86.53536998, 87.00000000,
    ]

    @Test("the table holds the 58 published transition latitudes")
    func tableMatchesPublished() {
        #expect(CPR.nlTransitions.count == 58)
        for (table, printed) in zip(CPR.nlTransitions, Self.published) {
            #expect(abs(table - printed) < 5e-9, "\(table) vs \(printed)")
        }
    }

    @Test("NL changes by one at each transition latitude, in both hemispheres", arguments: 0..<58)
    func transition(_ k: Int) {
        let t = CPR.nlTransitions[k]
        for sign in [1.0, -1.0] {
            #expect(CPR.nl(sign * (t - 1e-9)) == 59 - k)
            #expect(CPR.nl(sign * (t + 1e-9)) == 58 - k)
            #expect(CPR.nl(sign * (t - 1e-9)) == Self.closedFormula(sign * (t - 1e-9)))
            #expect(CPR.nl(sign * (t + 1e-9)) == Self.closedFormula(sign * (t + 1e-9)))
        }
    }

    @Test("fixed points: equator 59, ±87 is 2, beyond ±87 and at the poles 1")
    func fixedPoints() {
        #expect(CPR.nl(0) == 59)
        #expect(CPR.nl(87) == 2)
        #expect(CPR.nl(-87) == 2)
        #expect(CPR.nl(87.000001) == 1)
        #expect(CPR.nl(-87.000001) == 1)
        #expect(CPR.nl(90) == 1)
        #expect(CPR.nl(-90) == 1)
        #expect(CPR.nl(10.47) == 59)
        #expect(CPR.nl(10.48) == 58)
        #expect(CPR.nl(52.2572) == 36)
    }

    @Test("NL equals the closed formula on a dense sweep of latitudes")
    func sweep() {
        var mismatches: [Double] = []
        var latitude = -90.0
        var step = 0
        while latitude <= 90 {
            let nearTransition = CPR.nlTransitions.contains { abs(abs(latitude) - $0) < 1e-9 }
            if !nearTransition && CPR.nl(latitude) != Self.closedFormula(latitude) {
                mismatches.append(latitude)
            }
            step += 1
            latitude = -90 + Double(step) * 0.000_7
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(step > 250_000)
    }

    @Test("NL of a non-finite latitude is 1 rather than a trap")
    func nonFinite() {
        #expect(CPR.nl(.nan) == 1)
        #expect(CPR.nl(.infinity) == 1)
    }
}
