import Store
import Tracking

/// The imported aircraft database (Store: SQLite or PostgreSQL) as the table's lookup
/// (Tracking). Lookups that fail (a database error, PostgreSQL away) count as unknown.
struct StoreAircraftDatabase: AircraftDatabase {
    let database: any AircraftStore

    func info(address: UInt32) -> AircraftInfo? {
        guard let record = try? database.aircraft(address: address) else { return nil }
        return AircraftInfo(record)
    }

    func addresses(registration: String) -> [UInt32] {
        ((try? database.aircraft(registration: registration)) ?? []).map(\.address)
    }
}

extension AircraftInfo {
    init(_ record: AircraftRecord) {
        self.init(registration: record.registration, typeCode: record.typeCode, typeDescription: record.description,
                  ownerOperator: record.ownerOperator, year: record.year, flags: AircraftFlags(rawValue: record.flags))
    }
}
