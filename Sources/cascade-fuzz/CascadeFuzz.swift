// The fuzz targets, one binary for all: `scripts/fuzz` builds it with `-sanitize=fuzzer` and
// `-DFUZZING` (libFuzzer then supplies `main` and calls `LLVMFuzzerTestOneInput`), and picks the
// target with CASCADE_FUZZ_TARGET. Built plainly (as `swift build` does), it is a replayer:
// `cascade-fuzz TARGET FILE...` runs each file through the target once, to reproduce a crash
// without the fuzzer. One binary, because each build with the fuzzer instruments every module
// again: on a shared two-core machine one build takes minutes, eight would take an hour.
import Foundation
import Gallery
import GalleryConfig
@_spi(Fuzzing) import Imaging
@_spi(Fuzzing) import PreviewServer

/// Every target by name; each takes any bytes and must return (a crash, trap or hang is a bug).
let targets: [String: @Sendable ([UInt8]) -> Void] = [
    "request": PreviewServerFuzzing.request,
    "xmp": ImagingFuzzing.xmp,
    "exif": ImagingFuzzing.exif,
    "iptc": ImagingFuzzing.iptc,
    "tiff": ImagingFuzzing.tiff,
    "iso-media": ImagingFuzzing.isoMedia,
    "front-matter": { bytes in _ = AlbumIndexFile(parsing: String(decoding: bytes, as: UTF8.self), file: "index.md") },
    "markdown": { bytes in _ = MarkdownRenderer.html(fromMarkdown: String(decoding: bytes, as: UTF8.self)) },
]

#if FUZZING
/// The target CASCADE_FUZZ_TARGET names, chosen once (a global is initialised once, lazily).
let selectedTarget: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["CASCADE_FUZZ_TARGET"] ?? ""
    guard let target = targets[name] else {
        FileHandle.standardError.write(Data("cascade-fuzz: set CASCADE_FUZZ_TARGET to one of: \(targets.keys.sorted().joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = targets[name], arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: cascade-fuzz TARGET FILE...  (targets: \(targets.keys.sorted().joined(separator: ", ")))\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cascade-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            target(Array(data))
        }
        print("cascade-fuzz: \(arguments.count - 1) input(s) through \(name), no crash")
    }
}
#endif
