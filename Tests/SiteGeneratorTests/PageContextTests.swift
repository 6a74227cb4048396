import Foundation
import Testing

@testable import SiteGenerator

/// The page contexts' one conversion each (`mustache`) is the only place their variables are
/// named by strings: these tests catch a name there that the default theme's templates do not
/// use as written (a misspelt key renders as nothing, silently).
@Suite("Page contexts")
struct PageContextTests {
    static let frame = PageFrame(
        site: SiteInfo(title: "Site", author: "Ann"), title: "Dune", pageTitle: "Dune · Site", rootURL: "../index.html",
        assetsURL: "../assets/",
        breadcrumbs: [Breadcrumb(name: "Site", url: "../index.html", current: false), Breadcrumb(name: "Dune", url: nil, current: true)],
        gap: 8, pagePadding: 12, author: "Ann", footerCredit: "Photos by Ann",
        og: OpenGraph(title: "Dune", siteName: "Site", url: "https://example.org/dune.html", image: "https://example.org/dune.jpg"),
        feedURL: "https://example.org/feed.xml", tagsURL: "../tags/index.html", peopleURL: "../people/index.html",
        placesURL: "../places/index.html", searchURL: "../search/")
    static let source = PictureSource(type: "image/webp", srcset: "a.webp 400w", sizes: "50vw")
    static let tile = Tile(
        index: 0, url: "dune.html", style: "--x:0",
        image: PictureImage(src: "a.jpg", srcset: "a.jpg 400w", sizes: "50vw", sources: [source], width: 400, height: 300, alt: "Dune",
                            color: "#808080"),
        caption: "Sand", loading: "eager", isVideo: true, duration: "0:04",
        isLive: true, label: "Video, 0:04, Dune", section: SectionHeader(label: "July 2024", index: 0, start: 0, style: "--y:0"))
    static let album = AlbumPageContext(
        frame: frame,
        album: AlbumSummary(name: "Nature", descriptionHTML: "<p>Sea</p>", photoCount: 1, totalPhotoCount: 2, countLabel: "2 photos",
                            isRoot: false, isTag: true),
        albums: [AlbumCard(name: "Flowers", url: "flowers/index.html", photoCount: 1, countLabel: "1 photo",
                           cover: CardCover(image: PictureImage(src: "b.jpg", srcset: "b.jpg 400w", sizes: "50vw", sources: [source],
                                                                width: 400, height: 300, alt: "Rose", color: "#ff0000"),
                                            loading: "eager"))],
        hasPhotos: true, isEmpty: true, wallCSS: ".wall{}", framesURL: "frames.json", wallIsSlice: true, wallIsGrouped: true,
        wallIsRows: true, slideshowInterval: 4, lightboxThumbnails: true, tiles: [tile],
        pagination: Pagination(page: 2, pageCount: 9, links: [.page(number: 1, url: "../index.html", current: false), .ellipsis],
                               previous: PageLink(url: "../index.html"), next: PageLink(url: "3.html")))
    static let photo = PhotoPageContext(
        frame: frame,
        photo: PhotoDetails(
            title: "Dune", caption: "Sand", captionHTML: "<p>Sand</p>", showCaption: true, date: "1 July 2024",
            isoDate: "2024-07-01", camera: [CameraSetting(name: "Camera", value: "X")], keywords: [TagLink(name: "sea", url: "../tags/sea/")],
            hasKeywords: true, creator: "Ann", copyright: "© Ann", people: [TagLink(name: "Bo", url: nil)],
            places: [TagLink(name: "Paris", url: "../places/paris/")], fileName: "Dune.jpg",
            image: PictureImage(src: "c.jpg", srcset: "c.jpg 800w", sizes: "100vw", sources: [source], width: 800, height: 600, alt: "Dune",
                                color: "#808080"),
            position: "1", count: "2", isVideo: true,
            videoURL: "v.mp4", duration: "0:04", poster: "c.jpg", isLive: true, liveURL: "l.mov"),
        album: AlbumLink(name: "Nature", url: "index.html#p0"), original: OriginalDownload(url: "o.jpg", label: "800 × 600, 1 MB", fileName: "Dune.jpg"),
        previous: PageLink(url: "aqua.html", title: "Aqua"), next: PageLink(url: "storm.html", title: "Storm"))
    static let tags = TagListContext(frame: frame, tags: [TagListEntry(name: "sea", url: "sea/index.html", count: "2", countLabel: "2 photos")])

    /// Every key of `value`'s dictionaries, at any depth.
    static func keys(_ value: Any) -> Set<String> {
        if let values = value as? [String: Any] {
            return values.reduce(into: Set(values.keys)) { $0.formUnion(keys($1.value)) }
        }
        if let array = value as? [Any] { return array.reduce(into: []) { $0.formUnion(keys($1)) } }
        return []
    }

    /// The names a template uses (`{{name}}`, `{{{name}}}`, sections), split at their dots;
    /// `t.key` is the theme's strings, not a context's.
    static func names(in template: String) throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"\{\{\{?\s*[#^/]?\s*([A-Za-z_][A-Za-z0-9_.]*)"#)
        var names = Set<String>()
        for match in pattern.matches(in: template, range: NSRange(template.startIndex..., in: template)) {
            let name = String(template[Range(match.range(at: 1), in: template)!])
            if name.hasPrefix("t.") { continue }
            names.formUnion(name.split(separator: ".").map(String.init))
        }
        return names
    }

    @Test("every variable the default theme's templates use is a key of its page's context, once every optional is set")
    func templatesFindTheirVariables() throws {
        var theme: [String: Any] = [:]
        ThemeVariables(SiteStrings(language: .english, tables: [:], defaults: nil)).add(to: &theme)
        let themeKeys = Set(theme.keys).union(["viewerStrings", "searchStrings"])
        let partials = try ["partials/head", "partials/header", "partials/footer"].map { try Self.names(in: #require(embeddedThemeFiles[$0 + ".mustache"])) }
            .reduce(Set<String>()) { $0.union($1) }
        for (template, context) in [("album", Self.album.mustache), ("photo", Self.photo.mustache), ("tags", Self.tags.mustache)] {
            let used = try Self.names(in: #require(embeddedThemeFiles[template + ".mustache"])).union(partials)
            // The header's `album.isRoot` is only on album pages: elsewhere `album` is another
            // value (the photo page's link back) or absent, and the header shows the site's title.
            let missing = used.subtracting(Self.keys(context)).subtracting(themeKeys).subtracting(template == "album" ? [] : ["album", "isRoot"])
            #expect(missing.isEmpty, "\(template).mustache uses \(missing.sorted()), which its context lacks")
        }
    }

    @Test("a tile, an album card's cover and a photo's page give their image's variables the same names and values")
    func picturesAlike() throws {
        let cover = try #require((Self.album.mustache["albums"] as? [[String: Any]])?.first?["cover"] as? [String: Any])
        let photo = try #require(Self.photo.mustache["photo"] as? [String: Any])
        let images = [(Self.tile.mustache, Self.tile.image), (cover, Self.album.albums[0].cover!.image), (photo, Self.photo.photo.image)]
        for (values, image) in images {
            #expect(values["src"] as? String == image.src && values["srcset"] as? String == image.srcset)
            #expect(values["sizes"] as? String == image.sizes && values["alt"] as? String == image.alt)
            #expect(values["width"] as? Int == image.width && values["height"] as? Int == image.height)
            #expect(values["color"] as? String == image.color)
            #expect((values["sources"] as? [[String: Any]])?.map { $0["srcset"] as? String } == image.sources.map(\.srcset))
        }
    }

    @Test("an optional left nil is left out, as the dictionaries always were (the page keys in the catalog stay the same)")
    func nilIsLeftOut() {
        let frame = PageFrame(
            site: SiteInfo(title: "Site", author: ""), title: "Site", pageTitle: "Site", rootURL: "index.html", assetsURL: "assets/",
            breadcrumbs: [], gap: 8, pagePadding: 12, author: nil, footerCredit: nil,
            og: OpenGraph(title: "Site", siteName: "Site", url: nil, image: nil),
            feedURL: nil, tagsURL: nil, peopleURL: nil, placesURL: nil, searchURL: nil).mustache
        #expect(Set(frame.keys) == ["site", "title", "pageTitle", "rootURL", "assetsURL", "breadcrumbs", "hasBreadcrumbs", "gap",
                                    "pagePadding", "author", "hasAuthor", "footerCredit", "og"])
        #expect(frame["author"] as? String == "" && frame["hasAuthor"] as? Bool == false)
        #expect(Set((frame["og"] as? [String: Any] ?? [:]).keys) == ["title", "siteName"])
    }
}
