import Testing
@testable import Images

/// Uploads through the image library: real pictures of each format are re-encoded small and
/// stripped; hostile files are refused before or while decoding, never passed through.
@Suite("Images: profile pictures")
struct ProfilePictureTests {
    /// A real picture made by ImageMagick: `width`×`height`, a gradient, in `format`, with a
    /// comment (metadata) in it.
    static func picture(_ coder: String, width: Int, height: Int, comment: String = "secret-comment") -> [UInt8] {
        let format: ProfilePicture.Format = coder == "PNG" ? .png : coder == "JPEG" ? .jpeg : .webp
        let bytes = ProfilePicture.sample(format, width: width, height: height, comment: comment)
        #expect(!bytes.isEmpty)
        return bytes
    }

    @Test("PNG, JPEG and WebP pictures are decoded, scaled to at most 256 a side, stripped and re-encoded in their format",
          arguments: [("PNG", ProfilePicture.Format.png), ("JPEG", .jpeg), ("WEBP", .webp)])
    func realPictures(_ coder: String, _ format: ProfilePicture.Format) throws {
        let upload = Self.picture(coder, width: 1000, height: 500)
        #expect(ProfilePicture.format(of: upload) == format)
        let p = try ProfilePicture.make(from: upload)
        #expect(p.format == format && p.width == 256 && p.height == 128)
        #expect(ProfilePicture.format(of: p.data) == format)
        #expect(p.data != upload)
        #expect(!String(decoding: p.data, as: UTF8.self).contains("secret-comment"), "metadata is stripped")
        // A small one keeps its size.
        let small = try ProfilePicture.make(from: Self.picture(coder, width: 40, height: 30))
        #expect(small.width == 40 && small.height == 30)
    }

    /// A PNG whose header claims `width`×`height` (the CRCs right), with a few bytes of IDAT.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            be(UInt32(data.count)) + Array(type.utf8) + data + be(crc(Array(type.utf8) + data))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
            + chunk("IEND", [])
    }

    /// Refused for its size, or as unreadable, but in no case decoded.
    static let refusedUnread: @Sendable (ProfilePicture.Rejection) -> Bool = {
        if case .tooManyPixels = $0 { return true }
        if case .undecodable = $0 { return true }
        return false
    }

    @Test("Hostile uploads are refused: wrong signature, SVG and HTML disguised, truncated, huge dimensions, a bomb, too many bytes")
    func hostile() throws {
        let png = Self.picture("PNG", width: 300, height: 300)
        let cases: [(String, [UInt8], (ProfilePicture.Rejection) -> Bool)] = [
            ("empty", [], { $0 == .empty }),
            ("text", Array("hello, world".utf8), { $0 == .notAnImage }),
            ("SVG named .png", Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8), { $0 == .notAnImage }),
            ("HTML", Array("<!doctype html><html><script>alert(1)</script>".utf8), { $0 == .notAnImage }),
            ("GIF", Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20), { $0 == .notAnImage }),
            ("SVG behind a PNG signature", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8),
             { if case .undecodable = $0 { true } else { false } }),
            ("truncated PNG", Array(png.prefix(png.count / 2)), { if case .undecodable = $0 { true } else { false } }),
            // A decompression bomb's header: 60000×60000 (10 GB of pixels) in a few hundred bytes,
            // refused from the header (by our size check, or by libpng's own limits while
            // reading it), before any pixel is decoded.
            ("a 60000×60000 bomb", Self.pngHeader(width: 60000, height: 60000), Self.refusedUnread),
            ("1×65535", Self.pngHeader(width: 1, height: 65535), Self.refusedUnread),
            ("4097×1", Self.pngHeader(width: 4097, height: 1), { $0 == .tooManyPixels(width: 4097, height: 1) }),
            ("3 MiB", png + [UInt8](repeating: 0, count: 3 * 1024 * 1024), { if case .tooLarge = $0 { true } else { false } }),
        ]
        for (name, bytes, expected) in cases {
            do {
                _ = try ProfilePicture.make(from: bytes)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(expected(error), "\(name): \(error)")
            }
        }
    }

    @Test("ImageMagick is loaded at run time: here it loads; a missing library is named with the package to install, and a library without MagickWand's functions is refused")
    func loadedAtRunTime() {
        #expect(ProfilePicture.unavailableReason == nil, "libmagickwand-6.q16-6 is installed on a machine that runs the tests")
        #expect(ProfilePicture.probe(library: "libMagickWand-6.Q16.so.6") == nil)
        let missing = ProfilePicture.probe(library: "libMagickWand-does-not-exist.so.9")
        #expect(missing?.contains("pictures are off") == true && missing?.contains("libmagickwand-6.q16-6") == true, "\(missing ?? "")")
        let other = ProfilePicture.probe(library: "libc.so.6")
        #expect(other?.contains("has no MagickWandGenesis") == true, "\(other ?? "")")
        #expect(ProfilePicture.Rejection.unavailable("pictures are off").description == "pictures are off")
    }
}
