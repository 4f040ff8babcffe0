import Foundation
import PostgresNIO
import Store

/// The sighting log on PostgreSQL: batches written in one transaction with multi-row
/// statements; visits upserted by their natural key (`VisitKey`). A closed visit is final
/// (the recorder never reopens one): a batch written again, as after a lost reply, leaves it
/// and the statistics rollups built from it as they are.
extension PostgresStore {
    static let visitColumns = ["address", "firstSeen", "lastSeen", "callsign", "callsigns", "registration", "typeCode",
                               "operatorName", "category", "military", "squawk", "minAltitude", "maxAltitude",
                               "closestDistance", "closestTime", "messages", "positions", "lastLatitude",
                               "lastLongitude", "lastTrack", "closed", "farthestDistance"]
    /// Rows per multi-row statement (PostgreSQL takes at most 65 535 parameters).
    static let chunk = 500

    /// `($1, $2, …), ($n+1, …)` for `rows` rows of `columns` parameters each.
    static func placeholders(rows: Int, columns: Int) -> String {
        (0..<rows).map { r in "(" + (1...columns).map { "$\(r * columns + $0)" }.joined(separator: ", ") + ")" }.joined(separator: ", ")
    }

    /// Writes `batch` now (or, with buffered writes, queues it and returns at once: the
    /// events then come back without ids).
    public func write(_ batch: SightingBatch) async throws -> SightingWriteResult {
        guard !batch.isEmpty else { return SightingWriteResult() }
        if enqueue(batch) { return SightingWriteResult(events: batch.events.map(\.1)) }
        do {
            return try await withTimeout { try await self.writeNow(batch) }
        } catch {
            throw Self.reason(error)
        }
    }

    /// One transaction: visits, then points, receivers and events with their visit ids.
    func writeNow(_ batch: SightingBatch) async throws -> SightingWriteResult {
        let known = visitIDs.withLock { cache in batch.knownIDs.merging(cache) { given, _ in given } }
        let result = try await client.withTransaction(logger: logger) { connection -> SightingWriteResult in
            var result = SightingWriteResult()
            let columns = Self.visitColumns
            let update = columns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            var start = 0
            while start < batch.visits.count {
                let rows = batch.visits[start..<min(start + Self.chunk, batch.visits.count)]
                start += rows.count
                var binds = PostgresBindings()
                for v in rows {
                    binds.append(v.address); binds.append(v.firstSeen); binds.append(v.lastSeen); binds.append(v.callsign)
                    binds.append(v.callsigns); binds.append(v.registration); binds.append(v.typeCode); binds.append(v.operatorName)
                    binds.append(v.category); binds.append(v.military); binds.append(v.squawk); binds.append(v.minAltitude)
                    binds.append(v.maxAltitude); binds.append(v.closestDistance); binds.append(v.closestTime); binds.append(v.messages)
                    binds.append(v.positions); binds.append(v.lastLatitude); binds.append(v.lastLongitude); binds.append(v.lastTrack)
                    binds.append(v.closed); binds.append(v.farthestDistance)
                }
                let sql = """
                    INSERT INTO visit (\(columns.joined(separator: ", "))) VALUES \(Self.placeholders(rows: rows.count, columns: columns.count))
                    ON CONFLICT (address, firstSeen) DO UPDATE SET \(update) WHERE NOT visit.closed RETURNING id, address, firstSeen
                    """
                for try await (id, address, firstSeen) in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).decode((Int64, Int, Double).self) {
                    result.visitIDs[VisitKey(address: address, firstSeen: firstSeen)] = id
                }
            }
            // Ids of visits written in earlier batches: given, cached, else looked up.
            var ids = known.merging(result.visitIDs) { _, new in new }
            let referenced = Set(batch.points.map(\.0) + batch.receivers.map(\.0) + batch.events.map(\.0))
            for key in referenced where ids[key] == nil {
                let rows = try await connection.query("SELECT id FROM visit WHERE address = \(key.address) AND firstSeen = \(key.firstSeen)", logger: logger)
                for try await id in rows.decode(Int64.self) { ids[key] = id }
            }

            let points = batch.points.compactMap { key, p in ids[key].map { ($0, p) } }
            try await Self.insertRows(points, into: "trackPoint (visitId, time, latitude, longitude, altitude, track, groundSpeed)", columns: 7,
                                      connection: connection, logger: logger) { binds, row in
                binds.append(row.0); binds.append(row.1.time); binds.append(row.1.latitude); binds.append(row.1.longitude)
                binds.append(row.1.altitude); binds.append(row.1.track); binds.append(row.1.groundSpeed)
            }
            // One row per (visit, receiver) in a statement: later rows of a batch win.
            var latest: [String: (Int64, VisitReceiverRecord)] = [:]
            for (key, r) in batch.receivers { if let id = ids[key] { latest["\(id) \(r.receiver)"] = (id, r) } }
            try await Self.insertRows(Array(latest.values), into: "visitReceiver (visitId, receiver, firstSeen, lastSeen, messages, bestSignal)", columns: 6,
                                      suffix: """
                                       ON CONFLICT (visitId, receiver) DO UPDATE SET firstSeen = excluded.firstSeen, lastSeen = excluded.lastSeen,
                                       messages = excluded.messages, bestSignal = excluded.bestSignal
                                      """,
                                      connection: connection, logger: logger) { binds, row in
                binds.append(row.0); binds.append(row.1.receiver); binds.append(row.1.firstSeen); binds.append(row.1.lastSeen)
                binds.append(row.1.messages); binds.append(row.1.bestSignal)
            }
            for (key, event) in batch.events {
                var e = event
                e.visitId = ids[key]
                let rows = try await connection.query("""
                    INSERT INTO journalEvent (userId, watchRuleId, visitId, address, time, kind, callsign, registration, typeCode,
                                              latitude, longitude, altitude, distance, ruleLabel, note)
                    VALUES (\(e.userId), \(e.watchRuleId), \(e.visitId), \(e.address), \(e.time), \(e.kind.rawValue), \(e.callsign),
                            \(e.registration), \(e.typeCode), \(e.latitude), \(e.longitude), \(e.altitude), \(e.distance), \(e.ruleLabel),
                            \(e.note))
                    RETURNING id
                    """, logger: logger)
                for try await id in rows.decode(Int64.self) { e.id = id }
                result.events.append(e)
            }
            return result
        }
        visitIDs.withLock { cache in
            // Open visits are few (the aircraft in view); closed ones are never referenced again.
            if cache.count > 50_000 { cache.removeAll(keepingCapacity: true) }
            for (key, visit) in zip(batch.visits.map(VisitKey.init), batch.visits) {
                if visit.closed { cache[key] = nil } else if let id = result.visitIDs[key] { cache[key] = id }
            }
        }
        return result
    }

    /// Multi-row INSERT of `rows`, `columns` parameters each, in chunks.
    static func insertRows<Row>(_ rows: [Row], into target: String, columns: Int, suffix: String = "",
                                connection: PostgresConnection, logger: Logger,
                                bind: (inout PostgresBindings, Row) -> Void) async throws {
        var start = 0
        while start < rows.count {
            let part = rows[start..<min(start + chunk, rows.count)]
            start += part.count
            var binds = PostgresBindings()
            for row in part { bind(&binds, row) }
            let sql = "INSERT INTO \(target) VALUES \(placeholders(rows: part.count, columns: columns))\(suffix)"
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        }
    }
}
