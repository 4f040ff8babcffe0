import Feeds
import Foundation
import Hummingbird
import Images
import Store

/// Profiles: the session user's own (`GET/PUT /api/me/profile`, `PUT/DELETE
/// /api/me/profile/picture`) and anyone's as the viewer may see it
/// (`GET /api/users/{username}/profile`, `GET /api/users/{username}/picture`): each field only
/// when its visibility admits the viewer (public: anyone, logged in or not; friends; only
/// me). A user who blocks the viewer, or whom the viewer blocks, does not exist for them (404,
/// the same answer as a name nobody has).
struct ProfileController<Context: RequestContext> {
    let accounts: WebAccounts
    let clock: WallClock

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("me/profile", use: mine)
        group.put("me/profile", use: update)
        group.put("me/profile/picture", use: upload)
        group.delete("me/profile/picture", use: removePicture)
        group.get("users/{username}/profile", use: profile)
        group.get("users/{username}/picture", use: picture)
    }

    struct Change: Decodable {
        var display_name: String?
        var bio: String?
        /// A place id, or 0 to clear.
        var home_place_id: Int64?
        var visibility: [String: String]?
    }



    /// The profile's owner as `viewer` may address them, and how they stand.
    func subject(_ context: Context, viewer: UserRecord?) async throws -> (UserRecord, Relation?) {
        guard let name = context.parameters.get("username"), let owner = try await accounts.database.accounts.user(named: name), let id = owner.id else {
            throw APIError.notFound("no user '\(context.parameters.get("username") ?? "")'")
        }
        var relation: Relation?
        if let viewer { relation = try await accounts.database.social.relation(of: viewer.id!, to: id) }
        if relation == .blocked { throw APIError.notFound("no user '\(name)'") }
        return (owner, relation)
    }

    @Sendable func mine(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        return .json(try await document(u, relation: .me))
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let change = try await request.decode(as: Change.self, context: context)
        var p = try await accounts.database.profiles.profile(userId: u.id!) ?? ProfileRecord(userId: u.id!)
        if let name = change.display_name { p.displayName = name }
        if let bio = change.bio { p.bio = bio }
        if let home = change.home_place_id { p.homePlaceId = home == 0 ? nil : home }
        for (key, value) in change.visibility ?? [:] {
            guard let field = ProfileField(rawValue: key), let level = Visibility(rawValue: value) else {
                throw APIError.badRequest("visibility maps \(ProfileField.allCases.map(\.rawValue).joined(separator: ", ")) to public, friends or me")
            }
            p.visibility[field] = level
        }
        do {
            try await accounts.database.profiles.save(p, now: clock())
        } catch let error as ProfileError {
            if case .unknownPlace = error { throw APIError.notFound(error.description) }
            throw APIError.badRequest(error.description)
        }
        return .json(try await document(u, relation: .me))
    }

    @Sendable func upload(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        let picture = try await Pictures.upload(request, side: ProfilePicture.side)
        try await accounts.database.profiles.setPicture(userId: u.id!, data: picture.data, type: picture.format.contentType, now: clock())
        return .json(try await document(u, relation: .me))
    }

    @Sendable func removePicture(_ request: Request, context: Context) async throws -> Response {
        let u = try await accounts.user(request, now: clock())
        try await accounts.database.profiles.setPicture(userId: u.id!, data: nil, type: nil, now: clock())
        return Response(status: .noContent)
    }

    @Sendable func profile(_ request: Request, context: Context) async throws -> Response {
        let (owner, relation) = try await subject(context, viewer: await accounts.viewer(request, now: clock()))
        return .json(try await document(owner, relation: relation))
    }

    @Sendable func picture(_ request: Request, context: Context) async throws -> Response {
        let (owner, relation) = try await subject(context, viewer: await accounts.viewer(request, now: clock()))
        let p = try await accounts.database.profiles.profile(userId: owner.id!) ?? ProfileRecord(userId: owner.id!)
        guard p.visibility(of: .picture).admits(relation) else { throw APIError.notFound("no picture") }
        return try Pictures.response(try await accounts.database.profiles.picture(userId: owner.id!))
    }

    /// The profile of `owner` as a viewer standing in `relation` sees it (`nil`: logged out).
    func document(_ owner: UserRecord, relation: Relation?) async throws -> String {
        let p = try await accounts.database.profiles.profile(userId: owner.id!) ?? ProfileRecord(userId: owner.id!)
        func shows(_ field: ProfileField) -> Bool { p.visibility(of: field).admits(relation) }
        var w = JSONWriter()
        w.add("username", owner.username)
        if shows(.displayName) { w.add("display_name", p.displayName) }
        if shows(.bio) { w.add("bio", p.bio) }
        if shows(.picture), p.pictureType != nil {
            w.add("picture", "api/users/\(owner.username)/picture?v=\(Int(p.pictureUpdatedAt ?? 0))")
        }
        if shows(.home), let home = p.homePlaceId, let place = try await accounts.database.places.places(userId: owner.id!).first(where: { $0.id == home }) {
            w.addRaw("home", PlacesDocuments.place(place))
        }
        if shows(.stats) {
            let s = try await accounts.database.profiles.sightingSummary(userId: owner.id!)
            var stats = JSONWriter()
            stats.add("aircraft", s.aircraft)
            stats.add("types", s.types)
            stats.add("first_sighting", s.firstSighting)
            stats.add("last_sighting", s.lastSighting)
            stats.add("longest_distance_nm", s.longestDistance, decimals: 1)
            w.addRaw("stats", stats.finish())
        }
        if relation == .me {
            var v = JSONWriter()
            for field in ProfileField.allCases { v.add(field.rawValue, p.visibility(of: field).rawValue) }
            w.addRaw("visibility", v.finish())
        } else if let relation {
            w.add("relation", relation.rawValue)
        }
        return w.finish()
    }
}
