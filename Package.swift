// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// The demodulator's vector kernels are compiled for the build machine's vector unit, as
/// `-march=native` would: on an x86-64 CPU with AVX2 (and the FMA, BMI2, MOVBE, F16C and LZCNT
/// that come with it since Haswell) each `SIMD16<Int16>` or `SIMD32<UInt8>` operation becomes
/// one 256-bit instruction instead of two 128-bit ones (SSE2 is all baseline x86-64 promises).
/// A binary built that way runs only on such CPUs; set FLYTRACKER_PORTABLE=1 when building
/// one to copy to older machines. ARM64 (the Pi) always has NEON: nothing to choose there.
let demodVectorSettings: [SwiftSetting] = {
    #if arch(x86_64)
    guard ProcessInfo.processInfo.environment["FLYTRACKER_PORTABLE"] == nil,
          let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
    else { return [] }
    let flags = Set(line.split(separator: " ").map(String.init))
    let haswell: Set = ["avx", "avx2", "fma", "bmi1", "bmi2", "movbe", "f16c", "abm", "popcnt", "sse4_2"]
    return haswell.isSubset(of: flags) ? [.unsafeFlags(["-target-cpu", "haswell"])] : []
    #else
    return []
    #endif
}()

/// How the `flytracker` executable is linked in release builds, for a smaller resident set: a
/// replay's peak RSS is mostly the binary's own pages that starting up touches, not data.
/// lld instead of gold, for `-z pack-relative-relocs` (the pointer fix-ups a position-
/// independent Swift binary needs at load, which the loader reads whole at every start: in the
/// package's static build 150 000 of them, 3.7 MB, become a 30 kB bitmap; glibc 2.36, Debian
/// 12, reads it), and `--no-export-dynamic` (Swift executables export every symbol by default:
/// 5 MB of symbol table in that build, which the loader searches as it binds and nothing here
/// looks up). Measured on the dense replay (`docs/ARCHITECTURE.md`, Memory).
let releaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "--no-export-dynamic"], .when(configuration: .release)),
]

let package = Package(
    name: "FlyTracker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flytracker", targets: ["FlyTrackerCLI"]),
        .library(name: "ModeS", targets: ["ModeS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
    ],
    targets: [
        // Pure decoding core: stdlib and swift-numerics only (no Foundation, no clock, no I/O).
        .target(name: "ModeS", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // DSP: sample formats, magnitude, preamble detection, slicing; the modulator.
        // Optimised in debug builds too: the tests demodulate seconds of signal (the
        // sensitivity sweep, the coherent pass), which unoptimised code does tens of times
        // slower, crowding the rest of the suite on a 2-core machine.
        .target(name: "Demod", dependencies: ["ModeS", .product(name: "RealModule", package: "swift-numerics")],
                swiftSettings: demodVectorSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // librtlsdr, found through pkg-config (apt: librtlsdr-dev).
        .systemLibrary(name: "CRTLSDR", pkgConfig: "librtlsdr", providers: [.apt(["librtlsdr-dev"])]),
        // Sample sources: RTL-SDR capture, IQ files and stdin, the simulator.
        .target(name: "Radio", dependencies: ["Demod", "ModeS", "CRTLSDR"]),
        // The live aircraft table.
        .target(name: "Tracking", dependencies: ["ModeS"]),
        // The message catalogues (one JSON file per language) for the page and alert texts.
        .target(name: "Localization", resources: [.copy("Catalogues")]),
        // SQLite storage through GRDB: aircraft database, users, watchlists, sightings, alerts.
        .target(name: "Store", dependencies: [
            "ModeS", "Tracking", "Localization",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        ]),
        // The application services on the store: the sighting recorder and watchlist matching,
        // webhook alerts, predictions and reminders, goals, automatic posts.
        .target(name: "Services", dependencies: [
            "ModeS", "Tracking", "Store", "Localization",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        ]),
        // A task executor with a thread of its own (the receiver, PostgreSQL's client).
        .target(name: "Threads"),
        // The same store on PostgreSQL (PostgresNIO): many receivers, one database.
        .target(name: "PostgresStore", dependencies: [
            "ModeS", "Tracking", "Store", "Threads",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Wire formats (pure), JSON documents, and the TCP feeds (SwiftNIO).
        .target(name: "Feeds", dependencies: [
            "ModeS", "Tracking",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // ImageMagick 6's MagickWand, loaded at run time (dlopen), behind plain C types: pictures
        // need libmagickwand-6.q16-6 installed, nothing else does.
        .target(name: "CImageShim"),
        // User pictures: validated and re-encoded by a real image library.
        .target(name: "Images", dependencies: ["CImageShim"]),
        // HTTP API and the web page (Hummingbird).
        .target(name: "Web", dependencies: [
            "ModeS", "Tracking", "Store", "Services", "Feeds", "Images", "Localization",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("Public")]),
        // What `flytracker bench` measures beside the demodulator: the table, the store's
        // statistics queries, the feed (kept out of the product modules).
        .target(name: "Benchmarks", dependencies: [
            "ModeS", "Tracking", "Store",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .executableTarget(
            name: "FlyTrackerCLI",
            dependencies: [
                "ModeS", "Feeds", "Demod", "Radio", "Tracking", "Store", "Services", "PostgresStore", "Web", "Benchmarks", "Localization", "Threads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            linkerSettings: releaseLinkerSettings
        ),
        .testTarget(name: "ModeSTests", dependencies: ["ModeS"]),
        // Holds every Sources folder to the module table of docs/ARCHITECTURE.md.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "DemodTests", dependencies: ["Demod", "ModeS"]),
        // A stand-in for librtlsdr (plays IQ bytes, misbehaves on request) for the tests.
        .target(name: "RadioTestSupport", dependencies: ["Radio"], path: "Tests/RadioTestSupport"),
        .testTarget(name: "RadioTests", dependencies: ["Radio", "RadioTestSupport", "Demod", "ModeS"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "ModeS"]),
        .testTarget(name: "ImagesTests", dependencies: ["Images"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(name: "StoreTests", dependencies: [
            "Store", "Services", "PostgresStore", "PostgresTestSupport", "ModeS", "Tracking", "Localization",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["Schema"]),
        // A PostgreSQL server the tests start themselves (initdb and pg_ctl).
        .target(name: "PostgresTestSupport", dependencies: ["PostgresStore", "Store", "Tracking", "ModeS"], path: "Tests/PostgresTestSupport"),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "ModeS"]),
        .testTarget(name: "WebTests", dependencies: [
            "Web", "Store", "Services", "Tracking", "ModeS", "PostgresStore", "PostgresTestSupport", "Localization",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "FlyTrackerCLITests", dependencies: ["FlyTrackerCLI", "Benchmarks", "Demod", "Feeds", "ModeS", "Radio", "Tracking", "Store", "Services", "Web", "Threads", "PostgresTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
