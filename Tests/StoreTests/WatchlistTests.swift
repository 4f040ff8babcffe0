import Testing
@testable import Services
@testable import Store

@Suite("Watchlists and matching")
struct WatchlistTests {
    struct Case: Sendable, CustomStringConvertible {
        var kind: WatchKind
        var value: String
        var matching: [Observation]
        var notMatching: [Observation]
        var description: String { "\(kind.rawValue) \(value)" }
    }

    static func o(_ key: UInt32 = 0xABCDEF, callsign: String? = nil, reg: String? = nil, type: String? = nil, op: String? = nil,
                  squawk: String? = nil, emergency: Bool = false, military: Bool = false) -> Observation {
        Observation(key: key, callsign: callsign, registration: reg, typeCode: type, operatorName: op, military: military,
                    squawk: squawk, emergency: emergency, lastSeen: 0)
    }

    static let cases: [Case] = [
        Case(kind: .address, value: "4840D6", matching: [o(0x4840D6)], notMatching: [o(0x4840D7), o(0x1484_0D6), o(0xABCDEF, callsign: "4840D6")]),
        Case(kind: .registration, value: "d-aiup", matching: [o(reg: "D-AIUP"), o(reg: "DAIUP")], notMatching: [o(reg: "D-AIUQ"), o(reg: "D-AIU"), o(callsign: "DAIUP")]),
        Case(kind: .callsign, value: "klm1023", matching: [o(callsign: "KLM1023")], notMatching: [o(callsign: "KLM102"), o(callsign: "KLM10234"), o(reg: "KLM1023")]),
        Case(kind: .flight, value: "BA283", matching: [o(callsign: "BAW283")], notMatching: [o(callsign: "BA283"), o(callsign: "BAW2830"), o(callsign: "BAW28")]),
        Case(kind: .flight, value: "BA0283", matching: [o(callsign: "BAW283")], notMatching: [o(callsign: "BAW0283")]),
        Case(kind: .flight, value: "U21234", matching: [o(callsign: "EZY1234")], notMatching: [o(callsign: "U21234")]),
        Case(kind: .flight, value: "DLH400", matching: [o(callsign: "DLH400")], notMatching: [o(callsign: "DLH4000")]),
        Case(kind: .type, value: "B738", matching: [o(type: "B738")], notMatching: [o(type: "B737"), o(type: "B7"), o(type: "B7381")]),
        Case(kind: .type, value: "A32*", matching: [o(type: "A320"), o(type: "A321"), o(type: "A32N")], notMatching: [o(type: "A319"), o(type: "A3"), o(type: "B320")]),
        Case(kind: .type, value: "b73*", matching: [o(type: "B738"), o(type: "B73")], notMatching: [o(type: "B748"), o(type: "A738")]),
        Case(kind: .squawk, value: "7000", matching: [o(squawk: "7000")], notMatching: [o(squawk: "7001"), o(squawk: "0700")]),
        Case(kind: .emergencies, value: "", matching: [o(squawk: "7500"), o(squawk: "7600"), o(squawk: "7700"), o(emergency: true)],
             notMatching: [o(squawk: "7000"), o(squawk: "7770"), o()]),
        Case(kind: .military, value: "", matching: [o(military: true)], notMatching: [o(), o(callsign: "RCH123")]),
        Case(kind: .operator, value: "BAW", matching: [o(callsign: "BAW283"), o(op: "baw")], notMatching: [o(callsign: "BAWX"), o(callsign: "EZY12"), o(op: "British")]),
        Case(kind: .operator, value: "british airways", matching: [o(callsign: "BAW9"), o(op: "British Airways")], notMatching: [o(callsign: "SHT9"), o(op: "British Airways Cargo")]),
    ]

    @Test("Every rule kind matches its aircraft and nothing else", arguments: cases)
    func kinds(_ c: Case) throws {
        let value = try WatchRule.normalize(kind: c.kind, value: c.value)
        // The rule among unrelated ones (another user's rules of every kind).
        let rule = WatchRule(id: 1, userId: 1, kind: c.kind, value: value, createdAt: 0)
        let others = [WatchRule(id: 2, userId: 2, kind: .address, value: "000001", createdAt: 0),
                      WatchRule(id: 3, userId: 2, kind: .type, value: "C17*", createdAt: 0),
                      WatchRule(id: 4, userId: 2, kind: .callsign, value: "ZZZ1", createdAt: 0)]
        let matcher = WatchlistMatcher(rules: [rule] + others)
        for o in c.matching { #expect(matcher.matches(o).map(\.id) == [1], "\(o)") }
        for o in c.notMatching { #expect(matcher.matches(o).isEmpty, "\(o)") }
    }

    @Test("An aircraft matching several rules gets each once, in rule order")
    func several() {
        let rules = [WatchRule(id: 5, userId: 1, kind: .type, value: "B73*", createdAt: 0),
                     WatchRule(id: 3, userId: 1, kind: .flight, value: "BA283", createdAt: 0),
                     WatchRule(id: 4, userId: 2, kind: .operator, value: "BAW", createdAt: 0)]
        let matcher = WatchlistMatcher(rules: rules)
        #expect(matcher.matches(Self.o(callsign: "BAW283", type: "B738", op: "British Airways")).map(\.id) == [3, 4, 5])
    }

    @Test("IATA flight numbers become ICAO callsigns; users can add airlines")
    func airlineCodes() {
        let codes = AirlineCodes()
        #expect(codes.callsign(forFlight: "BA283") == "BAW283")
        #expect(codes.callsign(forFlight: "KL0601") == "KLM601")
        #expect(codes.callsign(forFlight: "AAL100") == "AAL100")
        #expect(codes.callsign(forFlight: "ZZ123") == nil)
        #expect(codes.callsign(forFlight: "B") == nil)
        #expect(AirlineCodes(extra: ["ZZ": "ZZZ"]).callsign(forFlight: "ZZ123") == "ZZZ123")
    }

    @Test("Stored airline additions feed the matcher")
    func airlineTable() async throws {
        let db = try await databaseWithUsers()
        try await db.watchlists.addAirlineCode(AirlineCodeRecord(iata: "q9", icao: "qqq"))
        try await db.watchlists.add(username: "alice", kind: .flight, value: "Q9100", now: 0)
        let matcher = await WatchlistMatcher(rules: try db.watchlists.all(), airlines: try db.watchlists.airlineCodes())
        #expect(matcher.matches(Self.o(callsign: "QQQ100")).count == 1)
    }

    @Test("Malformed values and duplicates are refused and nothing is written",
          arguments: [(WatchKind.address, "4840d"), (.address, "4840dg"), (.registration, "D-AIUP!"), (.callsign, "BAW 283"),
                      (.callsign, "ABCDEFGHI"), (.flight, "283"), (.flight, "B"), (.type, "B7*8"), (.type, "B7388"),
                      (.squawk, "7800"), (.squawk, "770"), (.emergencies, "7700"), (.military, "yes"), (.operator, "")])
    func badValues(kind: WatchKind, value: String) async throws {
        let db = try await databaseWithUsers()
        await #expect(throws: WatchRuleError.self) { try await db.watchlists.add(username: "alice", kind: kind, value: value, now: 0) }
        #expect(try count(db, "watchRule") == 0)
    }

    @Test("Rules belong to their user: duplicates, unknown users and other users' rule ids are refused")
    func ownership() async throws {
        let db = try await databaseWithUsers()
        let rule = try await db.watchlists.add(username: "alice", kind: .registration, value: "D-AIUP", label: "Lufthansa A320", now: 0)
        #expect(rule.value == "DAIUP")
        await #expect(throws: WatchRuleError.duplicate(kind: .registration, value: "DAIUP")) {
            try await db.watchlists.add(username: "alice", kind: .registration, value: "d-aiup", now: 0)
        }
        await #expect(throws: UserError.unknownUser("zed")) { try await db.watchlists.add(username: "zed", kind: .squawk, value: "7700", now: 0) }
        await #expect(throws: WatchRuleError.unknownRule(rule.id!)) { try await db.watchlists.remove(username: "bob", id: rule.id!) }
        #expect(try await db.watchlists.rules(username: "alice").count == 1)
        try await db.watchlists.remove(username: "alice", id: rule.id!)
        #expect(try await db.watchlists.rules(username: "alice").isEmpty)
    }
}
