import Foundation
import Tracking

/// readsb's `--uuid-file`: a file holding this receiver's UUID (one line, as `uuidgen`
/// writes it), the id an aggregator knows the receiver by across restarts.
enum ReceiverUUIDFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The UUID in `path`; when the file does not exist, a new random UUID is written there
    /// (mode 0644) and returned, so the id stays the same from one run to the next.
    static func read(_ path: String) throws(Failure) -> ReceiverID {
        if let data = FileManager.default.contents(atPath: path) {
            let text = String(decoding: data.prefix(256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let id = ReceiverID.uuid(text) else {
                throw Failure(description: "--uuid-file \(path): '\(text.prefix(40))' is not a UUID (write one with: uuidgen > \(path))")
            }
            return id
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw Failure(description: "--uuid-file \(path): cannot read the file")
        }
        let text = UUID().uuidString.lowercased()
        guard FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8),
                                             attributes: [.posixPermissions: 0o644]) else {
            throw Failure(description: "--uuid-file \(path): the file does not exist and cannot be created")
        }
        return ReceiverID.uuid(text)!
    }
}
