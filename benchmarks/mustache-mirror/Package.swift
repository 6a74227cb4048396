// swift-tools-version:5.9
// How swift-mustache renders a page from a dictionary and from structs (through Mirror): see
// BENCHMARKS.md, "Template contexts". Uses the main package's checkout of swift-mustache:
// run `swift build` at the repository's root first, then `swift run -c release` here.
import PackageDescription

let package = Package(
    name: "MustacheMirror",
    dependencies: [.package(path: "../../.build/checkouts/swift-mustache")],
    targets: [.executableTarget(name: "MustacheMirror", dependencies: [.product(name: "Mustache", package: "swift-mustache")])]
)
