/// The sighting log's batch write, written once for both engines: one transaction a second
/// of statements on natural keys, so that no statement waits for an id in Swift.
///
/// - Visits are upserted by their key (`address`, `firstSeen`: unique on both engines), many
///   to a statement; a closed visit is final (the recorder never reopens one), so a batch
///   written again, as after a lost reply, leaves it and the rollups built from it as they
///   are. `RETURNING` gives the ids of the visits written.
/// - Track points and visit receivers find their visit by its key in the same statement (a
///   join on a `VALUES` list, whose columns both engines name `column1`, `column2`, …); a row
///   whose visit is not stored (its batch dropped by a full PostgreSQL queue) is left out.
/// - Journal events, a few a second, are one statement each, for their ids.
extension SightingLogRepository {
    /// The most rows in one multi-row statement (visits: 22 values a row, far below both
    /// engines' bound-value limits).
    static let rowsPerStatement = 256

    static let visitColumns = ["address", "firstSeen", "lastSeen", "callsign", "callsigns", "registration", "typeCode",
                               "operatorName", "category", "military", "squawk", "minAltitude", "maxAltitude",
                               "closestDistance", "closestTime", "messages", "positions", "lastLatitude",
                               "lastLongitude", "lastTrack", "closed", "farthestDistance"]

    /// Writes `batch` in one transaction; returns the ids of the visits written and the
    /// journal events with theirs.
    public func write(_ batch: SightingBatch) async throws -> SightingWriteResult {
        guard !batch.isEmpty else { return SightingWriteResult() }
        var statements: [SQL] = []
        let update = Self.visitColumns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        // One row per visit in a statement (an upsert touches a row once): the last wins.
        for part in Self.parts(batch.visits.lastOfEach(VisitKey.init)) {
            statements.append("""
                INSERT INTO visit (\(raw: Self.visitColumns.joined(separator: ", "))) VALUES \(SQL.joined(part.map(Self.values), separator: ", "))
                ON CONFLICT (address, firstSeen) DO UPDATE SET \(raw: update) WHERE NOT visit.closed
                RETURNING id, address, firstSeen
                """)
        }
        let visitStatements = statements.count
        for part in Self.parts(batch.points) {
            let rows = part.map { key, p -> SQL in
                "(\(key.address), \(key.firstSeen), \(p.time), \(p.latitude), \(p.longitude), \(p.altitude), \(p.track), \(p.groundSpeed))"
            }
            statements.append("""
                INSERT INTO trackPoint (visitId, time, latitude, longitude, altitude, track, groundSpeed)
                SELECT v.id, x.column3, x.column4, x.column5, CAST(x.column6 AS INTEGER), CAST(x.column7 AS DOUBLE PRECISION),
                       CAST(x.column8 AS DOUBLE PRECISION)
                FROM (VALUES \(SQL.joined(rows, separator: ", "))) AS x JOIN visit v ON v.address = x.column1 AND v.firstSeen = x.column2
                """)
        }
        // One row per (visit, receiver) in a statement (an upsert touches a row once): the
        // batch's last one wins.
        for part in Self.parts(batch.receivers.lastOfEach { key, r in "\(key.address) \(key.firstSeen) \(r.receiver)" }) {
            let rows = part.map { key, r -> SQL in
                "(\(key.address), \(key.firstSeen), \(r.receiver), \(r.firstSeen), \(r.lastSeen), \(r.messages), \(r.bestSignal))"
            }
            statements.append("""
                INSERT INTO visitReceiver (visitId, receiver, firstSeen, lastSeen, messages, bestSignal)
                SELECT v.id, x.column3, x.column4, x.column5, x.column6, CAST(x.column7 AS DOUBLE PRECISION)
                FROM (VALUES \(SQL.joined(rows, separator: ", "))) AS x JOIN visit v ON v.address = x.column1 AND v.firstSeen = x.column2
                WHERE true
                ON CONFLICT (visitId, receiver) DO UPDATE SET firstSeen = excluded.firstSeen, lastSeen = excluded.lastSeen,
                    messages = excluded.messages, bestSignal = excluded.bestSignal
                """)
        }
        let firstEvent = statements.count
        for (key, e) in batch.events {
            statements.append("""
                INSERT INTO journalEvent (userId, watchRuleId, visitId, address, time, kind, callsign, registration, typeCode,
                                          latitude, longitude, altitude, distance, ruleLabel, note)
                VALUES (\(e.userId), \(e.watchRuleId), (SELECT id FROM visit WHERE address = \(key.address) AND firstSeen = \(key.firstSeen)),
                        \(e.address), \(e.time), \(e.kind.rawValue), \(e.callsign), \(e.registration), \(e.typeCode), \(e.latitude),
                        \(e.longitude), \(e.altitude), \(e.distance), \(e.ruleLabel), \(e.note))
                RETURNING id, visitId
                """)
        }
        let results = try await database.transaction(statements)
        var result = SightingWriteResult()
        for rows in results[..<visitStatements] {
            for row in rows {
                result.visitIDs[VisitKey(address: try row.decode(1), firstSeen: try row.decode(2))] = try row.decode(0, as: Int64.self)
            }
        }
        for ((_, event), rows) in zip(batch.events, results[firstEvent...]) {
            var e = event
            e.id = try rows.first?.decode(0, as: Int64.self)
            e.visitId = try rows.first?.decode(1, as: Int64?.self) ?? nil
            result.events.append(e)
        }
        return result
    }

    /// A visit's row of values, in `visitColumns` order.
    static func values(_ v: VisitRecord) -> SQL {
        """
        (\(v.address), \(v.firstSeen), \(v.lastSeen), \(v.callsign), \(v.callsigns), \(v.registration), \(v.typeCode), \
        \(v.operatorName), \(v.category), \(v.military), \(v.squawk), \(v.minAltitude), \(v.maxAltitude), \
        \(v.closestDistance), \(v.closestTime), \(v.messages), \(v.positions), \(v.lastLatitude), \
        \(v.lastLongitude), \(v.lastTrack), \(v.closed), \(v.farthestDistance))
        """
    }

    /// `rows` in pieces of at most `rowsPerStatement` (`SQL.pieces`).
    static func parts<Row>(_ rows: [Row]) -> [ArraySlice<Row>] { SQL.pieces(rows, atMost: rowsPerStatement) }
}
