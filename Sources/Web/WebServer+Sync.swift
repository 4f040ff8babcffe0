import Dispatch
import Foundation
import Synchronization

extension WebServer {
    /// `start` for synchronous callers (the `run` command's loop): blocks until the socket is
    /// bound or binding failed. Do not call from inside an async task.
    @discardableResult
    public func startAndWait(sources: WebSources, configuration: WebConfiguration = WebConfiguration()) throws -> Int {
        let result = Mutex<Result<Int, any Swift.Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                let port = try await self.start(sources: sources, configuration: configuration)
                result.withLock { $0 = .success(port) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// `stop` for synchronous callers: blocks until the server has shut down.
    public func stopAndWait() {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await self.stop()
            done.signal()
        }
        done.wait()
    }
}

/// A stats.json document the receiver loop replaces every second (`publish`) and the
/// server reads. Starts as `{}`.
public final class PublishedStats: StatsSource {
    private let document = Mutex("{}")

    public init() {}

    public func publish(_ text: String) {
        document.withLock { $0 = text }
    }

    public func statsDocument(now: Double) -> String {
        document.withLock { $0 }
    }
}
