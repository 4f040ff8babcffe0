import Feeds

extension FeedHub {
    /// For a test's `defer`, which cannot await: starts `shutdown()` and returns; the hub's
    /// event-loop thread ends once every listener and connection is closed.
    func stopAfterTest() { Task { await shutdown() } }
}
