import Foundation
import Gallery
import GalleryConfig

/// With a base URL, writes `feed.xml`: an Atom feed (RFC 4287) of the newest albums, each with
/// its title, its address, its date, its photo count and its cover, so that feed readers show
/// new albums as they are published. Hidden albums, the root and undated albums are left out
/// (an album is dated by its `index.md` or its oldest photo). The feed's `updated` is its
/// newest album's date, so a rebuild with nothing new writes the same bytes. The feed's author
/// is the site's; an entry whose photos name their creators has its own authors.
struct FeedStage {
    static let name = "feed"
    /// The feed's site-relative path, unless it is the user's (``SitePlan/feedPath``).
    static let path = "feed.xml"
    /// The most albums the feed lists.
    static let maximumEntries = 20

    var options: SiteOptions
    var writer: SiteWriter

    /// Writes the feed; returns its path, if written.
    func run(renderer: PageRenderer) throws(SiteError) -> String? {
        guard let base = options.baseURL else { return nil }
        let plan = renderer.plan
        let albums = plan.reachableAlbums.filter { $0 != 0 && !plan.albums[$0].hidden && plan.albums[$0].date != nil }
            .sorted { a, b in
                let (x, y) = (plan.albums[a].date!, plan.albums[b].date!)
                return x != y ? y < x : naturalOrder(plan.albums[a].directory, plan.albums[b].directory)
            }
            .prefix(Self.maximumEntries)
        var entries: [Entry] = []
        for album in albums {
            let entry = plan.albums[album]
            let cover = renderer.coverImage(of: album).map { base + URLPath.encode(path: $0) }
            entries.append(Entry(title: entry.title, url: base + URLPath.encode(path: entry.directory),
                                 updated: Self.timestamp(entry.date!), count: renderer.albumCountLabel(album), cover: cover,
                                 authors: Self.authors(of: album, renderer: renderer)))
        }
        let xml = Self.feed(title: options.title, author: options.author, base: base, entries: entries)
        try writer.writeIfChanged(Data(xml.utf8), to: plan.feedPath)
        return plan.feedPath
    }

    struct Entry {
        var title: String
        var url: String
        var updated: String
        var count: String
        var cover: String?
        /// The entry's own authors; none: the feed's author is the entry's (RFC 4287 4.2.1).
        var authors: [String] = []
    }

    /// The authors of an album's entry: when any of its photos (its albums' among them, as
    /// its count) names its creator (XMP `dc:creator`, EXIF Artist, IPTC By-line), each
    /// creator once, in the albums' order, and the site's `author` for photos without one
    /// (an entry's authors replace the feed's); when none does, none, and the feed's author
    /// stands for the entry.
    static func authors(of album: Int, renderer: PageRenderer) -> [String] {
        var photos: [Int] = []
        func visit(_ index: Int) {
            photos += renderer.plan.albums[index].photos
            for child in renderer.plan.albums[index].albums { visit(child) }
        }
        visit(album)
        let creators = renderer.creators(photos)
        return creators.anyCreator ? creators.names : []
    }

    /// An RFC 3339 time in UTC: a date with a zone at its instant (08:15:42-05:00 is
    /// 13:15:42Z); a floating one (no zone known) read as UTC, which is all Atom allows; the
    /// start of its day, month or year when it has no time.
    static func timestamp(_ date: GalleryDate) -> String {
        date.utcTimestamp
    }

    /// The feed's XML; every text is escaped.
    static func feed(title: String, author: String?, base: String, entries: [Entry]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        xml += "  <title>\(escape(title))</title>\n"
        xml += "  <id>\(escape(base))</id>\n"
        xml += "  <link rel=\"alternate\" type=\"text/html\" href=\"\(escape(base))\"/>\n"
        xml += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(escape(base + path))\"/>\n"
        xml += "  <updated>\(entries.first?.updated ?? "1970-01-01T00:00:00Z")</updated>\n"
        xml += "  <author><name>\(escape(author ?? title))</name></author>\n"
        xml += "  <generator>Cascade</generator>\n"
        for entry in entries {
            xml += "  <entry>\n"
            xml += "    <title>\(escape(entry.title))</title>\n"
            xml += "    <id>\(escape(entry.url))</id>\n"
            xml += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(escape(entry.url))\"/>\n"
            xml += "    <updated>\(entry.updated)</updated>\n"
            for author in entry.authors { xml += "    <author><name>\(escape(author))</name></author>\n" }
            var summary = "<p>\(escape(entry.count))</p>"
            if let cover = entry.cover {
                xml += "    <link rel=\"enclosure\" href=\"\(escape(cover))\"/>\n"
                summary = "<p><a href=\"\(escape(entry.url))\"><img src=\"\(escape(cover))\" alt=\"\(escape(entry.title))\"></a></p>" + summary
            }
            // The summary is HTML, escaped once more as the text of an XML element.
            xml += "    <content type=\"html\">\(escape(summary))</content>\n"
            xml += "  </entry>\n"
        }
        return xml + "</feed>\n"
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            // Characters XML 1.0 does not allow are dropped.
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r": continue
            case "\u{FFFE}", "\u{FFFF}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
