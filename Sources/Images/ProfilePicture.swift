import CMagickWand
import Synchronization

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

        public var description: String {
            switch self {
            case .empty: "the picture is empty"
            case .tooLarge(let n): "the picture is \(n) bytes; at most \(ProfilePicture.maximumBytes) (2 MiB)"
            case .notAnImage: "not a PNG, JPEG or WebP picture"
            case .tooManyPixels(let w, let h): "the picture is \(w)×\(h) pixels; at most \(ProfilePicture.maximumDimension) a side"
            case .undecodable(let why): "the picture cannot be read: \(why)"
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
        Library.start()
        guard let wand = NewMagickWand() else { throw .undecodable("out of memory") }
        defer { DestroyMagickWand(wand) }
        let name = "\(format.coder.lowercased()):upload"
        // The header only.
        MagickSetFilename(wand, name)
        guard bytes.withUnsafeBytes({ MagickPingImageBlob(wand, $0.baseAddress, $0.count) }) == MagickTrue else {
            throw .undecodable(exception(wand))
        }
        let (w, h) = (Int(MagickGetImageWidth(wand)), Int(MagickGetImageHeight(wand)))
        guard w > 0, h > 0 else { throw .undecodable("no size") }
        guard w <= maximumDimension, h <= maximumDimension else { throw .tooManyPixels(width: w, height: h) }
        // The pixels.
        ClearMagickWand(wand)
        MagickSetFilename(wand, name)
        let read = bytes.withUnsafeBytes { MagickReadImageBlob(wand, $0.baseAddress, $0.count) }
        var severity = UndefinedException
        let message = MagickGetException(wand, &severity)
        let reason = message.map { String(cString: $0) } ?? ""
        if let message { MagickRelinquishMemory(message) }
        guard read == MagickTrue, severity == UndefinedException else {
            throw .undecodable(reason.isEmpty ? "unreadable" : reason)
        }
        MagickResetIterator(wand)
        guard MagickNextImage(wand) == MagickTrue else { throw .undecodable("no image") }
        // One frame, no metadata, at most `side` a side.
        while MagickGetNumberImages(wand) > 1 {
            MagickSetIteratorIndex(wand, 1)
            MagickRemoveImage(wand)
        }
        MagickSetFirstIterator(wand)
        MagickStripImage(wand)
        let scale = min(1, Double(side) / Double(max(w, h)))
        let (tw, th) = (max(1, Int((Double(w) * scale).rounded())), max(1, Int((Double(h) * scale).rounded())))
        if scale < 1 { MagickThumbnailImage(wand, tw, th) }
        MagickSetImageFormat(wand, format.coder)
        if format != .png { MagickSetImageCompressionQuality(wand, 85) }
        var length = 0
        guard let blob = MagickGetImageBlob(wand, &length) else { throw .undecodable(exception(wand)) }
        defer { MagickRelinquishMemory(blob) }
        let data = Array(UnsafeBufferPointer(start: blob, count: length))
        return ProfilePicture(data: data, format: format, width: Int(MagickGetImageWidth(wand)), height: Int(MagickGetImageHeight(wand)))
    }

    static func exception(_ wand: OpaquePointer) -> String {
        var severity = UndefinedException
        guard let message = MagickGetException(wand, &severity) else { return "unreadable" }
        defer { MagickRelinquishMemory(message) }
        let text = String(cString: message)
        return text.isEmpty ? "unreadable" : text
    }

    /// ImageMagick started once, with limits no decode can exceed: 256 MiB of memory and of
    /// mapped memory, no disk cache, one thread. (No time limit: ImageMagick 6 counts it from
    /// start-up and then aborts the whole process, which a server must never do.)
    enum Library {
        private static let started = Mutex(false)

        static func start() {
            started.withLock { done in
                guard !done else { return }
                MagickWandGenesis()
                // Width, height and area generous enough that any header can be read and refused
                // with its size by `make` (which decodes nothing larger than maximumDimension a
                // side); memory, map and disk are what stop a decode that goes wrong.
                _ = SetMagickResourceLimit(WidthResource, 1 << 31)
                _ = SetMagickResourceLimit(HeightResource, 1 << 31)
                _ = SetMagickResourceLimit(AreaResource, 1 << 62)
                _ = SetMagickResourceLimit(MemoryResource, 256 * 1024 * 1024)
                _ = SetMagickResourceLimit(MapResource, 256 * 1024 * 1024)
                _ = SetMagickResourceLimit(DiskResource, 0)
                _ = SetMagickResourceLimit(ThreadResource, 1)
                done = true
            }
        }
    }
}
