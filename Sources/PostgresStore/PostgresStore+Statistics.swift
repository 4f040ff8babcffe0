import Store

extension PostgresStore: SightingStore {
    public var engine: String { "postgresql" }
    public var isAvailable: Bool { queue.withLock { $0?.failing != true } }
}
