import Feeds
import Foundation
import Hummingbird
import ModeS
import Store
import Services
import Tracking

/// The session user's places, reminders and predictions: `GET/POST /api/me/places`,
/// `PUT/DELETE /api/me/places/{id}`, `GET/POST /api/me/reminders`,
/// `DELETE /api/me/reminders/{id}`, `GET /api/me/eta`. Another user's place or reminder is
/// 404, exactly like one that does not exist; nothing is stored when a request is refused.
struct PlacesController<Context: RequestContext> {
    let accounts: WebAccounts
    let sources: WebSources

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("me/places", use: list)
        group.post("me/places", use: add)
        group.put("me/places/{id}", use: rename)
        group.delete("me/places/{id}", use: remove)
        group.get("me/reminders", use: reminders)
        group.post("me/reminders", use: addReminders)
        group.delete("me/reminders/{id}", use: removeReminder)
        group.get("me/eta", use: eta)
    }

    /// A new place: `name` with `lat`/`lon`, or `airport` (ICAO/IATA code), or `search` (words
    /// of an airport's name); optional `radius_km` or `radius_nm`, `alt` (ft).
    struct PlaceAddition: Decodable {
        var name: String?
        var lat: Double?
        var lon: Double?
        var airport: String?
        var search: String?
        var radius_km: Double?
        var radius_nm: Double?
        var alt: Int?
    }

    struct PlaceRename: Decodable {
        var name: String
    }

    /// Reminders for one place (`place_id`, null: the receiver), tracked item (`rule_id`,
    /// absent: all) and event, one per lead in `minutes`.
    struct ReminderAddition: Decodable {
        var place_id: Int64?
        var rule_id: Int64?
        var event: ReminderRecord.Event
        var minutes: [Int]
    }


    /// The receiver's position: configured, else the table's.
    var receiver: Coordinate? {
        sources.live.currentSnapshot.receiverPosition(configured: sources.receiver.position)
    }

    static func id(_ context: Context) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw APIError.badRequest("id must be a number") }
        return id
    }

    /// A place error as the API answers it: 404 for what is not the user's, 409 for a
    /// duplicate, else 400.
    static func apiError(_ error: PlaceError) -> APIError {
        switch error {
        case .unknownPlace, .unknownRule, .unknownReminder: APIError.notFound(error.description)
        case .duplicateName, .duplicateReminder: APIError(.conflict, error.description)
        default: APIError.badRequest(error.description)
        }
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        var items = try await accounts.database.places.places(userId: u.id!).map(PlacesDocuments.place)
        if let home = receiver { items.insert(PlacesDocuments.place(EtaBoard.receiverPlace(home, userId: u.id!)), at: 0) }
        var w = JSONWriter()
        w.addRaw("places", JSONWriter.array(items))
        return .json(w.finish())
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        let a = try await request.decode(as: PlaceAddition.self, context: context)
        let given = [a.lat != nil || a.lon != nil, a.airport != nil, a.search != nil].filter { $0 }.count
        guard given == 1 else { throw APIError.badRequest("give exactly one of lat and lon, airport, or search") }
        let source: PlaceSource
        if let airport = a.airport {
            source = .airport(airport)
        } else if let search = a.search {
            source = .search(search)
        } else {
            guard let lat = a.lat, let lon = a.lon else { throw APIError.badRequest("give both lat and lon") }
            source = .coordinates(latitude: lat, longitude: lon)
        }
        guard a.radius_km == nil || a.radius_nm == nil else { throw APIError.badRequest("give radius_km or radius_nm, not both") }
        let radius = a.radius_nm ?? a.radius_km.map { $0 / 1.852 }
        do {
            let place = try await PlaceRecord.make(userId: u.id!, name: a.name, source: source, radius: radius, altitude: a.alt,
                                             now: sources.clock(), airports: accounts.database.airports)
            return .json(PlacesDocuments.place(try await accounts.database.places.addPlace(place)), status: .created)
        } catch let error as PlaceError {
            throw Self.apiError(error)
        }
    }

    @Sendable func rename(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        let id = try Self.id(context)
        let change = try await request.decode(as: PlaceRename.self, context: context)
        do {
            return .json(PlacesDocuments.place(try await accounts.database.places.renamePlace(userId: u.id!, id: id, name: change.name)))
        } catch let error as PlaceError {
            throw Self.apiError(error)
        }
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        let id = try Self.id(context)
        do { try await accounts.database.places.removePlace(userId: u.id!, id: id) } catch let error as PlaceError { throw Self.apiError(error) }
        return Response(status: .noContent)
    }

    @Sendable func reminders(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        var w = JSONWriter()
        w.addRaw("reminders", JSONWriter.array(try await accounts.database.places.reminders(userId: u.id!).map(PlacesDocuments.reminder)))
        return .json(w.finish())
    }

    @Sendable func addReminders(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        let a = try await request.decode(as: ReminderAddition.self, context: context)
        guard (1...8).contains(a.minutes.count), Set(a.minutes).count == a.minutes.count else {
            throw APIError.badRequest("minutes must list 1 to 8 different leads, e.g. [10, 2]")
        }
        let records = a.minutes.map {
            ReminderRecord(userId: u.id!, placeId: a.place_id, watchRuleId: a.rule_id, event: a.event, leadMinutes: $0, createdAt: sources.clock())
        }
        do {
            let saved = try await accounts.database.addReminders(records)
            var w = JSONWriter()
            w.addRaw("reminders", JSONWriter.array(saved.map(PlacesDocuments.reminder)))
            return .json(w.finish(), status: .created)
        } catch let error as PlaceError {
            throw Self.apiError(error)
        }
    }

    @Sendable func removeReminder(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        let id = try Self.id(context)
        do { try await accounts.database.places.removeReminder(userId: u.id!, id: id) } catch let error as PlaceError { throw Self.apiError(error) }
        return Response(status: .noContent)
    }

    @Sendable func eta(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: sources.clock())
        let snapshot = sources.live.currentSnapshot
        let now = max(snapshot.time, 0)
        var places = try await accounts.database.places.places(userId: u.id!)
        if let home = receiver { places.insert(EtaBoard.receiverPlace(home, userId: u.id!), at: 0) }
        let matcher = WatchlistMatcher(rules: try await accounts.database.watchRules().filter { $0.userId == u.id },
                                       airlines: try await accounts.database.watchlists.airlineCodes())
        let predictions = EtaBoard.predictions(snapshot, places: places, matcher: matcher)
        return .json(PlacesDocuments.eta(predictions, now: now, format: u.timeFormat, language: u.language, units: u.units))
    }
}
