import Foundation

/// Waiting for something another thread does (a connection, a queue draining).
public enum Poll {
    /// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held.
    @discardableResult
    public static func until(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }
}
