import Foundation
import Imaging
import TestSupport
import Testing

@testable import SiteGenerator

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

extension TemporaryFolder {
    /// Writes a solid JPEG photo of `width` × `height` to `path`.
    func photo(_ path: String, width: Int, height: Int) throws {
        var image = try Image(width: width, height: height)
        image.fill(x: 0, y: 0, width: width, height: height, red: 30, green: 120, blue: 200)
        try write(path, try image.encoded(as: .jpeg(quality: 85)))
    }
}

/// Every file below `root`, relative path to contents' fingerprint (size and a checksum).
func snapshot(_ root: String) throws -> [String: String] {
    var result: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
        let full = (root as NSString).appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: full) else { continue }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        result[path] = "\(data.count)-\(hash)"
    }
    return result
}

/// Every file below `root` with the given extension.
func files(in root: String, withExtension ext: String) -> [String] {
    (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.hasSuffix("." + ext) }.sorted()
}

/// The values of an attribute in an HTML text.
func attributeValues(_ name: String, in html: String) -> [String] {
    var values: [String] = []
    var rest = html[...]
    let marker = " \(name)=\""
    while let start = rest.range(of: marker) {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        values.append(String(after[..<end]))
        rest = after[end...]
    }
    return values
}

/// Decodes the HTML entities the generator writes.
func unescapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&amp;", with: "&")
}

/// Resolves a relative, percent-encoded URL from the page at `page` (site-relative) to a site path.
func resolve(_ url: String, from page: String) -> String {
    var parts = page.split(separator: "/").dropLast().map(String.init)
    for segment in url.split(separator: "/", omittingEmptySubsequences: false) {
        if segment == ".." { parts.removeLast() } else if segment != "." && !segment.isEmpty {
            parts.append(String(segment).removingPercentEncoding ?? String(segment))
        }
    }
    return parts.joined(separator: "/")
}

@Suite("Building a site end to end", .serialized)
struct EndToEndTests {
    @Test("the example gallery builds: pages, thumbnails and frames.json are complete and consistent")
    func exampleGallery() async throws {
        let source = repositoryRoot.appendingPathComponent("examples/photos").path
        let before = try snapshot(source)
        try #require(!before.isEmpty, "examples/photos is missing")
        let output = try TemporaryFolder()
        let report = try await SiteBuilder(options: SiteOptions(
            sourceDirectory: source, outputDirectory: output.path, title: "Examples", jobs: 2)).build()
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        let sourcePhotos = before.keys.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") && !$0.hasSuffix(".txt") && !$0.hasSuffix(".yml") && !$0.hasSuffix(".xmp") }
        #expect(report.photos == sourcePhotos.count)
        #expect(try snapshot(source) == before, "the photo folder was modified")

        let site = try snapshot(output.path)
        // Never the original where a thumbnail belongs: no published file is a copy of a source file.
        #expect(Set(site.values).isDisjoint(with: Set(before.values)))

        let pages = files(in: output.path, withExtension: "html")
        #expect(pages.contains("index.html"))
        #expect(pages.count == report.pagesWritten)
        var photoPages = 0
        for page in pages {
            let html = try output.read(page)
            #expect(html.hasPrefix("<!doctype html>"))
            #expect(html.contains("<html lang=\"en\">"))
            #expect(html.contains("<meta name=\"viewport\""))
            // Every link and image on the page points at a file of the site.
            for url in attributeValues("href", in: html) + attributeValues("src", in: html) where !url.hasPrefix("data:") {
                // (A photo page's album link names the photo's tile: `index.html#p3`.)
                let parts = unescapeHTML(url).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let target = resolve(String(parts[0]), from: page)
                let exists = site[target] != nil || site[target + "index.html"] != nil
                #expect(exists, "\(page) links to \(url), which is not in the site")
                if parts.count == 2, exists {
                    let linked = try output.read(site[target] != nil ? target : target + "index.html")
                    #expect(linked.contains("id=\"\(parts[1])\""), "\(page) links to \(url), whose page has no such id")
                }
            }
            for srcset in attributeValues("srcset", in: html) {
                for candidate in unescapeHTML(srcset).split(separator: ",") {
                    let url = candidate.split(separator: " ").first.map(String.init) ?? ""
                    #expect(site[resolve(url, from: page)] != nil, "\(page): srcset entry \(url) is missing")
                }
            }
            #expect(attributeValues("alt", in: html).allSatisfy { !$0.isEmpty })
            if html.contains("class=\"photo-image\"") { photoPages += 1 }
        }
        #expect(photoPages == report.photos)

        // frames.json: one per album page and per tag page (tags/<slug>/), consistent with the
        // page's tiles; the list of tags (tags/index.html) has none.
        let wallPages = pages.filter { ($0 == "index.html" || $0.hasSuffix("/index.html")) && $0 != "tags/index.html" }
        let albumPages = wallPages.filter { !$0.hasPrefix("tags/") }
        #expect(albumPages.count == report.albums)
        #expect(wallPages.count > albumPages.count, "the example's keywords make tag pages")
        var tilesSeen = 0
        for page in wallPages {
            let folder = String(page.dropLast("index.html".count))
            let frameData = try FrameData(folder: output.url.appendingPathComponent(folder))
            let items = frameData.items
            #expect(frameData.breakpoints.map(\.columns) == SiteOptions.defaultBreakpoints.map(\.columns))
            let html = try output.read(page)
            let tileLinks = html.components(separatedBy: "class=\"tile\" href=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            #expect(tileLinks == items.map(\.page))
            if !page.hasPrefix("tags/") { tilesSeen += items.count }
            for breakpoint in frameData.breakpoints {
                let frames = breakpoint.frames
                #expect(frames.count == items.count)
                let width = breakpoint.referenceWidth
                for (i, a) in frames.enumerated() {
                    #expect(a[0] >= 0 && a[0] + a[2] <= width + 0.01 && a[1] >= 0 && a[1] + a[3] <= breakpoint.contentHeight + 0.01)
                    for b in frames[(i + 1)...] {
                        let overlap = a[0] < b[0] + b[2] - 0.01 && b[0] < a[0] + a[2] - 0.01
                            && a[1] < b[1] + b[3] - 0.01 && b[1] < a[1] + a[3] - 0.01
                        #expect(!overlap)
                    }
                }
                // The frames computed from the columns and ratios reach exactly the engine's height.
                let bottom = frames.map { $0[1] + $0[3] }.max() ?? 0
                #expect(abs(bottom - breakpoint.contentHeight) < 0.05)
            }
            for item in items {
                let thumbnails = item.thumbnails
                #expect(thumbnails.count >= 2 || item.width <= 400)
                for thumbnail in thumbnails {
                    let url = thumbnail.url
                    let path = resolve(url, from: page)
                    let bytes = try #require(FileManager.default.contents(atPath: output.url.appendingPathComponent(path).path))
                    let info = try ImageProbe.probe([UInt8](bytes))
                    #expect(info.format == .jpeg)
                    #expect(info.pixelWidth == thumbnail.width)
                    #expect(info.pixelWidth <= 1600)
                }
            }
        }
        #expect(tilesSeen == report.photos)
        #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent("assets/cascade.css").path))
    }

    @Test("bad files are skipped with their reason and the build goes on")
    func badFilesAreSkipped() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try source.photo("Trip/good.jpg", width: 300, height: 200)
        try source.write("Trip/empty.jpg", [])
        try source.write("Trip/notes.jpg", Array("not a photo".utf8))
        var truncated = try Image(width: 600, height: 400)
        truncated.fill(x: 0, y: 0, width: 600, height: 200, red: 255, green: 0, blue: 0)
        let jpeg = try truncated.encoded(as: .jpeg(quality: 90))
        try source.write("Trip/cut.jpg", Array(jpeg.prefix(jpeg.count / 2)))
        try source.write("Broken/only.jpg", Array("still not a photo".utf8))
        let report = try await SiteBuilder(options: SiteOptions(
            sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)).build()
        #expect(report.photos == 1)
        #expect(report.skipped.map(\.path) == ["Broken/only.jpg", "Trip/cut.jpg", "Trip/empty.jpg", "Trip/notes.jpg"])
        #expect(report.skipped.allSatisfy { !$0.reason.isEmpty })
        // The album whose only photo failed is not published; the other one is.
        let root = try output.read("index.html")
        #expect(root.contains("trip/index.html"))
        #expect(!root.contains("broken/index.html"))
        #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("trip/cut.html").path))
    }

    @Test("the output folder may not be the photo folder, inside it, or around it")
    func outputOverlap() async throws {
        let source = try TemporaryFolder()
        try source.photo("a.jpg", width: 20, height: 20)
        for output in [source.path, source.path + "/_site", source.url.deletingLastPathComponent().path, source.path + "/../" + source.url.lastPathComponent + "/x"] {
            await #expect(throws: SiteError.outputOverlapsSource(output: output, source: source.path)) {
                try await SiteBuilder(options: SiteOptions(sourceDirectory: source.path, outputDirectory: output, title: "T")).build()
            }
        }
        #expect(try snapshot(source.path).keys.sorted() == ["a.jpg"])
    }

    @Test("names with quotes, markup, #, ?, % and other scripts are escaped in pages and encoded in URLs")
    func hostileNames() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        let names = ["<script>alert(1)<:script> & \"q\".jpg", "100% #1?.jpg", "東京 🎉.jpg", "IMG_1.JPG", "img_1.jpg"]
        for name in names { try source.photo("Odd \"album\" <b>/" + name, width: 40, height: 30) }
        let report = try await SiteBuilder(options: SiteOptions(
            sourceDirectory: source.path, outputDirectory: output.path, title: "A <b>bold</b> title", jobs: 1)).build()
        #expect(report.photos == names.count)
        let pages = files(in: output.path, withExtension: "html")
        let site = try snapshot(output.path)
        for page in pages {
            let html = try output.read(page)
            #expect(!html.contains("<script>alert"))
            #expect(!html.contains("<b>"))
            for url in attributeValues("href", in: html) where !url.hasPrefix("data:") {
                // (The album link's fragment, `#p3`, names a tile: the site's own, not a name.)
                let path = url.replacing(/#p[0-9]+$/, with: "")
                #expect(!path.contains(" ") && !path.contains("#") && !path.contains("?"), "\(url) is not encoded")
                let target = resolve(unescapeHTML(path), from: page)
                #expect(site[target] != nil, "\(page) links to \(url), not in the site")
            }
        }
        // Names that differ only in case get their own files.
        let albumFolder = try #require(pages.first { $0.hasSuffix("/index.html") }).dropLast("index.html".count)
        let photoPages = pages.filter { $0.hasPrefix(albumFolder) && !$0.hasSuffix("index.html") }
        #expect(photoPages.count == names.count)
        #expect(Set(photoPages.map { $0.lowercased() }).count == names.count)
    }

    @Test("a theme folder overrides the default templates file by file")
    func themeOverride() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        let theme = try TemporaryFolder()
        try source.photo("a.jpg", width: 40, height: 30)
        try theme.write("photo.mustache", Array("<!doctype html><title>{{photo.title}}</title><p class=\"custom\">{{photo.position}} of {{photo.count}}</p>".utf8))
        try theme.write("assets/extra.css", Array("body{}".utf8))
        _ = try await SiteBuilder(options: SiteOptions(
            sourceDirectory: source.path, outputDirectory: output.path, templatesDirectory: theme.path, title: "T")).build()
        #expect(try output.read("a.html").contains("<p class=\"custom\">1 of 1</p>"))
        #expect(try output.read("index.html").contains("class=\"wall\""))
        #expect(try output.read("assets/extra.css") == "body{}")
        #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent("assets/cascade.css").path))

        try theme.write("album.mustache", Array("{{#broken}".utf8))
        await #expect(throws: SiteError.self) {
            try await SiteBuilder(options: SiteOptions(
                sourceDirectory: source.path, outputDirectory: output.path, templatesDirectory: theme.path, title: "T")).build()
        }
    }
}
