import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread that runs one closure and can be joined (Foundation's `Thread` cannot).
/// `join()` may be called once, from one thread.
final class JoinableThread: @unchecked Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(_ run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
            self.name = name
        }
    }

    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif
    private var joined = false

    /// Starts `body` on a new thread named `name` (at most 15 characters show in `top -H`).
    /// Throws the errno of `pthread_create`.
    init(name: String, _ body: @escaping @Sendable () -> Void) throws(RTLSDRCaptureError) {
        let context = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        let r = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            Thread.current.name = String(body.name.prefix(15))
            body.run()
            return nil
        }, context)
        if r != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .thread(r)
        }
    }

    /// Waits for the closure to return.
    func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        if let thread { pthread_join(thread, nil) }
        #endif
    }
}
