import PostgresStore
import PostgresTestSupport
import Store
import Testing

/// The two engines the store suite runs every test against.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    /// A fresh, empty, migrated store of this engine.
    func makeStore() async throws -> any SightingStore {
        switch self {
        case .sqlite: return try AppDatabase.inMemory()
        // A minute, not the product's 15 s: the suite loads a 2-core machine with hundreds of
        // tests at once, and a test of behaviour must not fail on the machine's load.
        case .postgresql: return try await PostgresStore.open(try PostgresTestServer.shared.get().makeDatabase(), timeout: .seconds(60))
        }
    }
}

