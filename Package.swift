// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Cascade",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "cascade", targets: ["cascade"]),
        .library(name: "Waterfall", targets: ["Waterfall"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
    ],
    targets: [
        // The shared layout engine: pure Swift, no Foundation, no platform imports.
        .target(name: "Waterfall"),

        // C libraries from Debian, each behind the Swift wrapper in `Imaging`.
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),

        // Decoding, orientation, resizing and encoding of photos; owns every C pointer.
        .target(name: "Imaging", dependencies: ["CGD", "CExif"]),

        // Scanning a photo folder into albums and photos.
        .target(name: "Gallery", dependencies: ["Imaging"]),

        // Writing the static site: pages, thumbnails, frames.json.
        .target(
            name: "SiteGenerator",
            dependencies: [
                "Waterfall", "Imaging", "Gallery",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedTheme"]
        ),

        // The thin command-line front end.
        .executableTarget(
            name: "cascade",
            dependencies: [
                "SiteGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Build tool that embeds the default theme (`templates/`) into the binary.
        .executableTarget(name: "embed-theme"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["embed-theme"]),

        // Engine benchmark (not a test): `swift build -c release --product waterfall-benchmark`.
        .executableTarget(name: "waterfall-benchmark", dependencies: ["Waterfall"], path: "Benchmarks/WaterfallBenchmark"),

        .testTarget(name: "WaterfallTests", dependencies: ["Waterfall"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "GalleryTests", dependencies: ["Gallery", "Imaging"]),
        .testTarget(name: "SiteGeneratorTests", dependencies: ["SiteGenerator", "Waterfall", "Imaging", "Gallery"]),
    ]
)
