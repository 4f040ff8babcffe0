import Testing
@testable import ModeS

struct NavigationIntegrityTests {
    @Test("version 2 airborne: type code and supplements A/B give the NIC of DO-260B Table 2-14", arguments: [
        (9, false, false, 11 as Int?), (10, false, false, 10), (11, true, true, 9), (11, false, false, 8),
        (11, true, false, nil), (12, false, false, 7), (13, false, false, 6), (13, true, true, 6),
        (13, false, true, 6), (14, false, false, 5), (15, false, false, 4), (16, true, true, 3),
        (16, false, false, 2), (16, false, true, nil), (17, false, false, 1), (18, false, false, 0),
        (20, false, false, 11), (21, false, false, 10), (22, false, false, 0),
    ])
    func versionTwoAirborne(tc: Int, a: Bool, b: Bool, expected: Int?) {
        #expect(NavigationIntegrity.nic(typeCode: tc, version: 2, supplementA: a, supplementB: b) == expected)
    }

    @Test func versionTwoSurfaceUsesSupplementsAAndC() {
        #expect(NavigationIntegrity.nic(typeCode: 5, version: 2, supplementA: false) == 11)
        #expect(NavigationIntegrity.nic(typeCode: 7, version: 2, supplementA: true) == 9)
        #expect(NavigationIntegrity.nic(typeCode: 7, version: 2, supplementA: false) == 8)
        #expect(NavigationIntegrity.nic(typeCode: 8, version: 2, supplementA: true, supplementC: true) == 7)
        #expect(NavigationIntegrity.nic(typeCode: 8, version: 2, supplementA: false, supplementC: true) == 6)
        #expect(NavigationIntegrity.nic(typeCode: 8, version: 2, supplementA: false, supplementC: false) == 0)
    }

    @Test func versionOneUsesItsSingleSupplementAndVersionZeroHasNoNIC() {
        #expect(NavigationIntegrity.nic(typeCode: 11, version: 1, supplementA: true) == 9)
        #expect(NavigationIntegrity.nic(typeCode: 11, version: 1, supplementA: false) == 8)
        #expect(NavigationIntegrity.nic(typeCode: 16, version: 1, supplementA: true) == 3)
        #expect(NavigationIntegrity.nic(typeCode: 11, version: 0, supplementA: false) == nil)
        #expect(NavigationIntegrity.nic(typeCode: 19, version: 2, supplementA: false) == nil)
    }
}
