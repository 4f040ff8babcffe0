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
    ],
    targets: [
        // Pure decoding core: stdlib and swift-numerics only (no Foundation, no clock, no I/O).
        .target(name: "ModeS", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // Pure wire formats and JSON documents (network servers arrive with the feeds issue).
        .target(name: "Feeds", dependencies: ["ModeS"]),
        .executableTarget(
            name: "FlyTrackerCLI",
            dependencies: [
                "ModeS", "Feeds",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ModeSTests", dependencies: ["ModeS"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "ModeS"]),
        .testTarget(name: "FlyTrackerCLITests", dependencies: ["FlyTrackerCLI", "Feeds", "ModeS"]),
    ],
    swiftLanguageModes: [.v6]
)
