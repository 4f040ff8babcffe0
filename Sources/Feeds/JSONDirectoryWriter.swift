#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a JSON file could not be written.
public struct JSONDirectoryError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var errno: Int32

    public var description: String {
        "cannot \(operation) \(path): \(String(cString: strerror(errno)))"
    }
}

/// Writes `aircraft.json`, `receiver.json` and `stats.json` into a directory (`run
/// --json-dir DIR`), each atomically: the text goes to a hidden temporary file in the same
/// directory, which is then renamed over the old file, so readers (tar1090, a web server)
/// never see a half-written document. Files are created mode 0644.
public struct JSONDirectoryWriter: Sendable {
    public let directory: String

    /// Uses `directory`, creating it (one level) when missing.
    public init(directory: String) throws(JSONDirectoryError) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        var info = stat()
        if stat(self.directory, &info) != 0 {
            if mkdir(self.directory, 0o755) != 0 && errno != EEXIST {
                throw JSONDirectoryError(path: self.directory, operation: "create directory", errno: errno)
            }
        } else if info.st_mode & S_IFMT != S_IFDIR {
            throw JSONDirectoryError(path: self.directory, operation: "use as a directory", errno: ENOTDIR)
        }
    }

    /// Writes the documents given (nil ones are left alone).
    public func write(aircraft: String?, receiver: String? = nil, stats: String? = nil) throws(JSONDirectoryError) {
        if let receiver { try write(name: "receiver.json", contents: receiver) }
        if let stats { try write(name: "stats.json", contents: stats) }
        if let aircraft { try write(name: "aircraft.json", contents: aircraft) }
    }

    /// Writes one file atomically (temporary file, then rename).
    public func write(name: String, contents: String) throws(JSONDirectoryError) {
        let final = directory + "/" + name
        let temporary = directory + "/." + name + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw JSONDirectoryError(path: temporary, operation: "create", errno: errno) }
        var bytes = Array(contents.utf8)
        bytes.append(10)
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Self.systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if close(fd) != 0 && failure == nil {
            let code = errno
            unlink(temporary)
            throw JSONDirectoryError(path: temporary, operation: "write", errno: code)
        }
        if let failure {
            unlink(temporary)
            throw JSONDirectoryError(path: temporary, operation: "write", errno: failure)
        }
        if rename(temporary, final) != 0 {
            let code = errno
            unlink(temporary)
            throw JSONDirectoryError(path: final, operation: "replace", errno: code)
        }
    }

    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }
}
