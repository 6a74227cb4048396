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
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        // SQLite, for the catalog of what each build made (Debian's libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The shared layout engine: pure Swift, no Foundation, no platform imports.
        .target(name: "Waterfall"),

        // C libraries from Debian, each behind the Swift wrapper in `Imaging`.
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // GitHub's CommonMark with its extensions, behind `Gallery.MarkdownRenderer`.
        .systemLibrary(name: "CMarkGFM", pkgConfig: "libcmark-gfm", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // Snowball's stemmers, behind `SiteGenerator.Stemmer` (the search index); no pkg-config file.
        .systemLibrary(name: "CStemmer", providers: [.apt(["libstemmer-dev"])]),

        // Cascade's own C: AVX2 kernels for pixel loops with table lookups, chosen at run time.
        .target(name: "CPixelKernels"),

        // Decoding, orientation, resizing and encoding of photos; owns every C pointer.
        .target(name: "Imaging", dependencies: ["Support", "CGD", "CExif", "CTurboJPEG", "CLCMS2", "CZlib", "CPixelKernels"]),

        // Videos through the ffmpeg and ffprobe commands: probing, poster frames, web versions.
        .target(name: "Video", dependencies: ["Imaging"]),

        // The YAML files Cascade reads: `cascade.yml` (site configuration) and album front matter.
        .target(name: "GalleryConfig", dependencies: [.product(name: "Yams", package: "Yams")]),

        // Scanning a photo folder into albums and photos (with index.md, captions, sort order).
        .target(
            name: "Gallery",
            dependencies: ["Imaging", "GalleryConfig", "Video", "Support", "CMarkGFM"]
        ),

        // What the modules share and no framework gives: reading a folder's entries with
        // `readdir` safely, owning a file descriptor, writing every byte, a parallel map,
        // values kept out of line (`Boxed`), and a path's real path.
        .target(name: "Support"),

        // What earlier builds of an output folder made, and from what: a SQLite database of
        // plain-column tables, its migrations and records. The only module that imports GRDB;
        // `SiteGenerator` uses it through `package` declarations.
        .target(name: "Catalog", dependencies: ["Imaging", "Gallery", "Video", "Support", .product(name: "GRDB", package: "GRDB.swift")]),

        // Writing the static site: pages, thumbnails, frames.json.
        .target(
            name: "SiteGenerator",
            dependencies: [
                "Waterfall", "Imaging", "Gallery", "GalleryConfig", "Video", "Support", "CStemmer", "Catalog",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedTheme"]
        ),

        // An HTTP/1.1 server of its own (POSIX sockets, one thread per connection), so that no
        // networking framework is built: request heads, responses, connections and their
        // limits. Knows nothing about sites (as HummingbirdCore under Hummingbird).
        .target(name: "HTTPCore", dependencies: ["Support"]),

        // `cascade serve`'s server: one folder's files over HTTPCore, with live reload.
        // Knows nothing about galleries.
        .target(name: "PreviewServer", dependencies: ["HTTPCore", "Support"]),

        // `cascade serve`'s source watcher (inotify, else polling): calls a rebuild closure.
        .target(name: "SourceWatching", dependencies: ["Support"]),

        // The thin command-line front end.
        .executableTarget(
            name: "cascade",
            dependencies: [
                "SiteGenerator", "Catalog", "GalleryConfig", "PreviewServer", "SourceWatching", "Video",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The fuzz targets (libFuzzer, built by scripts/fuzz with -sanitize=fuzzer; plainly
        // built, a replayer of inputs). Seed corpora in Tests/fuzz/<target>/.
        .executableTarget(name: "cascade-fuzz", dependencies: ["Imaging", "PreviewServer", "GalleryConfig", "Gallery"]),

        // Build tool that embeds the default theme (`templates/`) into the binary.
        .executableTarget(name: "embed-theme"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["embed-theme"]),

        // Engine benchmark (not a test): `swift build -c release --product waterfall-benchmark`.
        .executableTarget(name: "waterfall-benchmark", dependencies: ["Waterfall"], path: "benchmarks/WaterfallBenchmark"),

        // What the test targets share: temporary folders and a deterministic random generator.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "WaterfallTests", dependencies: ["Waterfall", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
        .testTarget(name: "GalleryConfigTests", dependencies: ["GalleryConfig", "TestSupport"]),
        .testTarget(name: "GalleryTests", dependencies: ["Gallery", "Support", "GalleryConfig", "Imaging", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Imaging", "Gallery", "Video", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "SiteGeneratorTests", dependencies: ["SiteGenerator", "Catalog", "Waterfall", "Imaging", "Gallery", "GalleryConfig", "Video", "Support", "TestSupport",
                                                             .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Mustache", package: "swift-mustache")]),
        .testTarget(name: "PreviewServerTests", dependencies: ["PreviewServer", "HTTPCore", "SourceWatching", "Support", "TestSupport"]),
    ]
)

// scripts/fuzz builds with CASCADE_FUZZ_BUILD=1 and `--sanitize fuzzer`, which instruments every
// module and links libFuzzer's `main` into every executable, the theme plugin's tool too (which
// then cannot build). So that build declares only what the fuzz targets are made of.
if Context.environment["CASCADE_FUZZ_BUILD"] != nil {
    let fuzzed: Set<String> = ["cascade-fuzz", "Imaging", "PreviewServer", "HTTPCore", "GalleryConfig", "Gallery", "Video", "Support",
                               "Waterfall", "CGD", "CExif", "CTurboJPEG", "CLCMS2", "CZlib", "CMarkGFM", "CPixelKernels"]
    package.targets.removeAll { !fuzzed.contains($0.name) }
    package.products = [.executable(name: "cascade-fuzz", targets: ["cascade-fuzz"])]
}
