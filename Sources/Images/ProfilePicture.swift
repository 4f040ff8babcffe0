import CImageShim

/// A user's picture as FlyTracker keeps and serves it: decoded and re-encoded by ImageMagick
/// (never passed through as uploaded), at most `ProfilePicture.side` pixels a side, without
/// metadata, in the format it came in.
public struct ProfilePicture: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case png, jpeg, webp

        public var contentType: String { "image/\(rawValue)" }
        /// ImageMagick's coder name.
        var coder: String { rawValue.uppercased() }
    }

    public var data: [UInt8]
    public var format: Format
    public var width: Int
    public var height: Int

    /// Largest upload, bytes.
    public static let maximumBytes = 2 * 1024 * 1024
    /// Largest width or height of an upload, pixels.
    public static let maximumDimension = 4096
    /// Largest side of a stored profile picture, pixels.
    public static let side = 256
    /// Largest side of a stored post picture, pixels.
    public static let postSide = 1024

    /// What is wrong with an upload.
    public enum Rejection: Error, Equatable, CustomStringConvertible {
        case empty
        case tooLarge(bytes: Int)
        /// Not a PNG, JPEG or WebP file (by its first bytes): SVG, HTML, GIF, text…
        case notAnImage
        case tooManyPixels(width: Int, height: Int)
        /// The library could not decode it (truncated, corrupt), with its reason.
        case undecodable(String)
        /// The image library is not installed: pictures are off, everything else works.
        case unavailable(String)

        public var description: String {
            switch self {
            case .empty: "the picture is empty"
            case .tooLarge(let n): "the picture is \(n) bytes; at most \(ProfilePicture.maximumBytes) (2 MiB)"
            case .notAnImage: "not a PNG, JPEG or WebP picture"
            case .tooManyPixels(let w, let h): "the picture is \(w)×\(h) pixels; at most \(ProfilePicture.maximumDimension) a side"
            case .undecodable(let why): "the picture cannot be read: \(why)"
            case .unavailable(let why): why
            }
        }
    }

    /// The format an upload says it is by its signature (PNG `89 50 4E 47 0D 0A 1A 0A`, JPEG
    /// `FF D8 FF`, WebP `RIFF….WEBP`); the library is then told to read it as exactly that, so
    /// it never guesses (an SVG or HTML file never reaches a coder).
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Validates and re-encodes an upload: the size, the format by signature, the dimensions
    /// from the header alone (a decompression bomb is refused before any pixel is decoded),
    /// then a full decode under ImageMagick's resource limits; any warning (a truncated or
    /// corrupt file) refuses it. The first frame, metadata stripped, scaled to fit `side`.
    public static func make(from bytes: [UInt8], side: Int = ProfilePicture.side) throws(Rejection) -> ProfilePicture {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count) }
        guard let format = format(of: bytes) else { throw .notAnImage }
        var error = [CChar](repeating: 0, count: 256)
        func why() -> String { text(of: error) }
        // The header only.
        var w = 0, h = 0
        let pinged = bytes.withUnsafeBufferPointer { b in ft_image_ping(b.baseAddress, b.count, format.coder, &w, &h, &error, error.count) }
        if pinged == -2 { throw .unavailable(why()) }
        guard pinged == 0 else { throw .undecodable(why()) }
        guard w > 0, h > 0 else { throw .undecodable("no size") }
        guard w <= maximumDimension, h <= maximumDimension else { throw .tooManyPixels(width: w, height: h) }
        // The pixels, re-encoded.
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0, tw = 0, th = 0
        let done = bytes.withUnsafeBufferPointer { b in
            ft_image_reencode(b.baseAddress, b.count, format.coder, side, 85, &out, &length, &tw, &th, &error, error.count)
        }
        guard done == 0, let out else { throw .undecodable(why()) }
        defer { ft_image_free(out) }
        return ProfilePicture(data: Array(UnsafeBufferPointer(start: out, count: length)), format: format, width: tw, height: th)
    }

    /// Whether pictures can be taken: the image library loads (nil), or why not.
    public static var unavailableReason: String? {
        var error = [CChar](repeating: 0, count: 256)
        guard ft_image_start(&error, error.count) != 0 else { return nil }
        return text(of: error)
    }

    /// Why the library `soname` cannot serve as the image library (nil: it can). Loads nothing.
    public static func probe(library soname: String) -> String? {
        var error = [CChar](repeating: 0, count: 256)
        guard ft_image_probe(soname, &error, error.count) != 0 else { return nil }
        return text(of: error)
    }

    /// The C shim's NUL-terminated reason as text.
    private static func text(of error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A gradient picture made by ImageMagick, with `comment` as metadata (for tests).
    public static func sample(_ format: Format, width: Int, height: Int, comment: String) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard ft_image_sample(format.coder, width, height, comment, &out, &length) == 0, let out else { return [] }
        defer { ft_image_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
