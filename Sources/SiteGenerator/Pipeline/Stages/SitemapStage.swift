import Foundation

/// With a base URL, writes `sitemap.xml` (sitemaps.org) listing every page of the site but
/// those of hidden albums.
struct SitemapStage {
    static let name = "sitemap"

    var baseURL: String?
    var writer: SiteWriter

    /// Writes the sitemap of the site whose files are `files`; returns its path, if written.
    func run(plan: SitePlan, files: Set<String>) throws(SiteError) -> String? {
        guard let base = baseURL else { return nil }
        let hidden = plan.albums.filter(\.hidden).map(\.directory)
        let urls = files.filter { path in path.hasSuffix(".html") && !hidden.contains { path.hasPrefix($0) } }.sorted().map { path in
            base + URLPath.encode(path: path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path)
        }
        // (`sitemap.xml`, unless it is the user's: ``SitePlan/sitemapPath``.)
        try writer.writeIfChanged(Data(Self.sitemap(urls).utf8), to: plan.sitemapPath)
        return plan.sitemapPath
    }

    /// The sitemap listing `urls`.
    static func sitemap(_ urls: [String]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for url in urls {
            let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            xml += "  <url><loc>\(escaped)</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }
}
