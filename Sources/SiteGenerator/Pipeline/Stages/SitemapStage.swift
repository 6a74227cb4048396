import Catalog
import Foundation

/// How much one sitemap file may list: the sitemaps.org protocol's 50,000 addresses and
/// 50 MiB (52,428,800 bytes, uncompressed). A test lowers them to split a small site.
struct SitemapLimits: Sendable, Equatable {
    var urls = 50_000
    var bytes = 52_428_800

    /// The protocol's.
    static let sitemaps = SitemapLimits()
}

/// With a base URL, writes `sitemap.xml` (sitemaps.org) listing every page of the site but
/// those of hidden albums. A site of more pages than one sitemap may list
/// (``SitemapLimits``) gets a sitemap index there instead, which lists the sitemaps of its
/// pages in parts (`sitemap-part-1.xml`, …, beside it, as the protocol wants): each part is
/// told to the catalog before it is written, as the tool's.
struct SitemapStage {
    static let name = "sitemap"

    var baseURL: String?
    var writer: SiteWriter
    var catalog: Catalog
    var limits = SitemapLimits.sitemaps

    /// Writes the sitemap of the site whose files are `files`; returns the paths written (the
    /// sitemap, and its parts when it is an index), empty without a base URL.
    func run(plan: SitePlan, files: Set<String>) throws(SiteError) -> [String] {
        guard let base = baseURL else { return [] }
        let hidden = plan.albums.filter(\.hidden).map(\.directory)
        let urls = files.filter { path in path.hasSuffix(".html") && (hidden.isEmpty || !hidden.contains { path.hasPrefix($0) }) }
            .sorted()
            .map { path in base + URLPath.encode(path: path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path) }
        let parts = Self.parts(urls, limits: limits)
        // (`sitemap.xml`, unless it is the user's: ``SitePlan/sitemapPath``.)
        guard parts.count > 1 else {
            try writer.writeIfChanged(Data(Self.sitemap(urls).utf8), to: plan.sitemapPath)
            return [plan.sitemapPath]
        }
        let names = parts.indices.map { Self.partName(of: plan.sitemapPath, number: $0 + 1) }
        try SiteError.fromCatalog { () throws(CatalogError) in try catalog.prepare(addingFiles: names, forgettingPhotos: [String]()) }
        for (name, part) in zip(names, parts) {
            try writer.writeIfChanged(Data(Self.sitemap(urls[part]).utf8), to: name)
        }
        try writer.writeIfChanged(Data(Self.index(names.map { base + $0 }).utf8), to: plan.sitemapPath)
        return [plan.sitemapPath] + names
    }

    /// The name of part `number` (from 1) of the sitemap index `sitemap` (`sitemap.xml`, or
    /// `sitemap-2.xml` when that is the user's): `sitemap-part-1.xml`, `sitemap-2-part-1.xml`.
    static func partName(of sitemap: String, number: Int) -> String {
        String(sitemap.dropLast(".xml".count)) + "-part-\(number).xml"
    }

    /// Whether `name` is a part of the sitemap index `sitemap` (``partName(of:number:)``).
    static func isPart(_ name: String, of sitemap: String) -> Bool {
        let stem = String(sitemap.dropLast(".xml".count)) + "-part-"
        guard name.hasPrefix(stem), name.hasSuffix(".xml") else { return false }
        let number = name.dropFirst(stem.count).dropLast(".xml".count)
        return !number.isEmpty && number.allSatisfy(\.isASCII) && Int(number).map { $0 > 0 } ?? false
    }

    /// `urls` cut into runs of at most `limits.urls` addresses whose sitemap is at most
    /// `limits.bytes` long, each as long as it can be; one run (maybe empty) when they all fit.
    static func parts(_ urls: [String], limits: SitemapLimits) -> [Range<Int>] {
        let frame = header.utf8.count + footer.utf8.count
        var parts: [Range<Int>] = []
        var start = 0
        var bytes = frame
        for (index, url) in urls.enumerated() {
            let size = entrySize(url)
            if index > start && (index - start == limits.urls || bytes + size > limits.bytes) {
                parts.append(start..<index)
                start = index
                bytes = frame
            }
            bytes += size
        }
        parts.append(start..<urls.count)
        return parts
    }

    private static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    private static let footer = "</urlset>\n"
    private static let entryStart = "  <url><loc>", entryEnd = "</loc></url>\n"

    /// The sitemap listing `urls`.
    static func sitemap(_ urls: some Collection<String>) -> String {
        var xml = header
        // (Its size known first: a large site's sitemap is megabytes, grown by doubling otherwise.)
        xml.reserveCapacity(header.utf8.count + footer.utf8.count + urls.reduce(0) { $0 + entrySize($1) })
        for url in urls {
            xml += entryStart
            appendEscaped(url, to: &xml)
            xml += entryEnd
        }
        return xml + footer
    }

    /// The sitemap index listing the sitemaps at `urls`.
    static func index(_ urls: [String]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for url in urls {
            xml += "  <sitemap><loc>"
            appendEscaped(url, to: &xml)
            xml += "</loc></sitemap>\n"
        }
        return xml + "</sitemapindex>\n"
    }

    /// The bytes of `url`'s entry in a sitemap.
    private static func entrySize(_ url: String) -> Int {
        var size = entryStart.utf8.count + entryEnd.utf8.count
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "&"): size += 5
            case UInt8(ascii: "<"), UInt8(ascii: ">"): size += 4
            default: size += 1
            }
        }
        return size
    }

    /// `url` with `&`, `<` and `>` escaped, appended to `xml`. (Called for every page of the
    /// site on every build that changed one: no Foundation search, which took seconds at
    /// 100,000 pages, and the address as it is when it has none of them, as most have.)
    private static func appendEscaped(_ url: String, to xml: inout String) {
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            xml += url
            return
        }
        for character in url.unicodeScalars {
            switch character {
            case "&": xml += "&amp;"
            case "<": xml += "&lt;"
            case ">": xml += "&gt;"
            default: xml.unicodeScalars.append(character)
            }
        }
    }
}
