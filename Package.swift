// swift-tools-version: 6.2
import PackageDescription

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
    ],
    targets: [
        // Pure decoding core: stdlib and swift-numerics only (no Foundation, no clock, no I/O).
        .target(name: "ModeS", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // DSP: sample formats, magnitude, preamble detection, slicing; the modulator.
        .target(name: "Demod", dependencies: ["ModeS", .product(name: "RealModule", package: "swift-numerics")]),
        // librtlsdr, found through pkg-config (apt: librtlsdr-dev).
        .systemLibrary(name: "CRTLSDR", pkgConfig: "librtlsdr", providers: [.apt(["librtlsdr-dev"])]),
        // Sample sources: RTL-SDR capture, IQ files and stdin, the simulator.
        .target(name: "Radio", dependencies: ["Demod", "ModeS", "CRTLSDR"]),
        // The live aircraft table.
        .target(name: "Tracking", dependencies: ["ModeS"]),
        // SQLite storage through GRDB: aircraft database, users, watchlists, sightings, alerts.
        .target(name: "Store", dependencies: [
            "ModeS", "Tracking",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        // Wire formats (pure), JSON documents, and the TCP feeds (SwiftNIO).
        .target(name: "Feeds", dependencies: [
            "ModeS", "Tracking", "Demod",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // HTTP API and the web page (Hummingbird).
        .target(name: "Web", dependencies: [
            "ModeS", "Tracking", "Store", "Feeds",
            .product(name: "Hummingbird", package: "hummingbird"),
        ], resources: [.copy("Public")]),
        .executableTarget(
            name: "FlyTrackerCLI",
            dependencies: [
                "ModeS", "Feeds", "Demod", "Radio", "Tracking", "Store", "Web",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ModeSTests", dependencies: ["ModeS"]),
        .testTarget(name: "DemodTests", dependencies: ["Demod", "ModeS"]),
        .testTarget(name: "RadioTests", dependencies: ["Radio", "Demod", "ModeS"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "ModeS"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "ModeS"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "ModeS"]),
        .testTarget(name: "WebTests", dependencies: [
            "Web", "Store", "Tracking", "ModeS",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "FlyTrackerCLITests", dependencies: ["FlyTrackerCLI", "Feeds", "ModeS"]),
    ],
    swiftLanguageModes: [.v6]
)
