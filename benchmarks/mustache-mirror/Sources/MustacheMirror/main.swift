// Renders the default theme's album.mustache (a page of 500 tiles) and photo.mustache from the
// same variables held two ways: as dictionaries (what Cascade gives swift-mustache) and as plain
// structs (which swift-mustache reads through Mirror); checks that both make the same page and
// prints the time a page. Usage: MustacheMirror [templates folder] (default: ../../templates).
import Foundation
import Mustache

struct Source { var type: String; var srcset: String; var sizes: String }
struct Tile {
    var index: Int; var url: String; var style: String; var src: String; var srcset: String; var sizes: String
    var sources: [Source]; var width: Int; var height: Int; var alt: String; var caption: String; var loading: String
    var color: String; var isVideo: Bool; var duration: String; var isLive: Bool; var label: String
}
struct Site { var title: String; var author: String }
struct OpenGraph { var title: String; var siteName: String }
struct Crumb { var name: String; var url: String?; var current: Bool }
struct Album { var name: String; var descriptionHTML: String; var hasDescription: Bool; var photoCount: Int; var totalPhotoCount: Int; var countLabel: String; var isRoot: Bool }
struct Setting { var name: String; var value: String }
struct Back { var name: String; var url: String }
struct Neighbour { var url: String; var title: String }
struct Photo {
    var title: String; var alt: String; var caption: String; var captionHTML: String; var hasCaptionHTML: Bool; var hasCaption: Bool
    var showCaption: Bool; var date: String; var isoDate: String; var hasDate: Bool; var hasDetails: Bool; var camera: [Setting]
    var hasCamera: Bool; var keywords: [Crumb]; var hasKeywords: Bool; var creator: String; var copyright: String; var hasCredits: Bool
    var hasCreator: Bool; var hasCopyright: Bool; var people: [Crumb]; var hasPeople: Bool; var places: [Crumb]; var hasPlaces: Bool
    var fileName: String; var src: String; var srcset: String; var sizes: String; var sources: [Source]; var width: Int; var height: Int
    var color: String; var position: String; var count: String; var isVideo: Bool; var videoURL: String; var duration: String
    var poster: String; var isLive: Bool; var liveURL: String
}
/// The variables of every page, then each page kind's own (a template names them all at its root).
struct AlbumPage {
    var site: Site; var title: String; var pageTitle: String; var rootURL: String; var assetsURL: String; var breadcrumbs: [Crumb]
    var hasBreadcrumbs: Bool; var gap: Int; var pagePadding: Int; var author: String; var hasAuthor: Bool; var footerCredit: String
    var og: OpenGraph; var tagsURL: String; var searchURL: String; var t: [String: String]; var htmlLang: String; var rtl: Bool
    var album: Album; var hasAlbums: Bool; var hasPhotos: Bool; var isEmpty: Bool; var wallCSS: String; var framesURL: String
    var wallIsSlice: Bool; var wallIsGrouped: Bool; var wallIsRows: Bool; var slideshowInterval: Int; var lightboxThumbnails: Bool
    var tiles: [Tile]
}
struct PhotoPage {
    var site: Site; var title: String; var pageTitle: String; var rootURL: String; var assetsURL: String; var breadcrumbs: [Crumb]
    var hasBreadcrumbs: Bool; var gap: Int; var pagePadding: Int; var author: String; var hasAuthor: Bool; var footerCredit: String
    var og: OpenGraph; var tagsURL: String; var searchURL: String; var t: [String: String]; var htmlLang: String; var rtl: Bool
    var photo: Photo; var album: Back; var previous: Neighbour; var next: Neighbour
}

/// A struct as the dictionary Cascade would hand over (its stored properties, nil ones left out),
/// found here through Mirror to keep this file short; Cascade's `mustache` properties write each out.
func dictionary(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct:
        var values: [String: Any] = [:]
        for child in mirror.children { if let label = child.label, let value = dictionary(child.value) { values[label] = value } }
        return values
    case .collection: return mirror.children.compactMap { dictionary($0.value) }
    case .optional: return mirror.children.first.flatMap { dictionary($0.value) }
    default: return value
    }
}
extension Source { var mustache: [String: Any] { ["type": type, "srcset": srcset, "sizes": sizes] } }
extension Tile {
    /// Written out by hand, as Cascade's `Tile.mustache`: converted for every page.
    var mustache: [String: Any] {
        ["index": index, "url": url, "style": style, "src": src, "srcset": srcset, "sizes": sizes, "sources": sources.map(\.mustache),
         "width": width, "height": height, "alt": alt, "caption": caption, "loading": loading, "color": color, "isVideo": isVideo,
         "duration": duration, "isLive": isLive, "label": label]
    }
}

var t: [String: String] = [:]
for key in ["pages_label", "page_previous", "page_next", "album_empty", "breadcrumbs_label", "search_label", "search_filters",
            "search_results_label", "search_more", "tags", "people", "places", "made_with", "photo_nav_label", "photo_previous",
            "photo_next", "keywords_label", "credit_by", "download_original", "live_photo_link"] { t[key] = key.uppercased() }
func crumbs(_ title: String) -> [Crumb] { [Crumb(name: "Site", url: "../index.html", current: false), Crumb(name: title, url: nil, current: true)] }
let tiles = (0..<500).map { i in
    Tile(index: i, url: "photo-\(i).html", style: "--x:\(i);--y:\(i * 3);--bg:#808080", src: "thumbs/p\(i)-400.jpg",
         srcset: "thumbs/p\(i)-400.jpg 400w, thumbs/p\(i)-800.jpg 800w", sizes: "(min-width: 700px) 320px, 50vw",
         sources: [Source(type: "image/webp", srcset: "thumbs/p\(i)-400.webp 400w, thumbs/p\(i)-800.webp 800w", sizes: "50vw")],
         width: 4000, height: 3000, alt: "Photo \(i)", caption: "", loading: i < 8 ? "eager" : "lazy", color: "#808080",
         isVideo: false, duration: "", isLive: false, label: "")
}
let albumPage = AlbumPage(
    site: Site(title: "Site", author: "Me"), title: "Album", pageTitle: "Album · Site", rootURL: "../index.html", assetsURL: "../assets/",
    breadcrumbs: crumbs("Album"), hasBreadcrumbs: true, gap: 8, pagePadding: 12, author: "Me", hasAuthor: true, footerCredit: "Photos by Me",
    og: OpenGraph(title: "Album", siteName: "Site"), tagsURL: "../tags/", searchURL: "../pagefind/", t: t, htmlLang: "en", rtl: false,
    album: Album(name: "Album", descriptionHTML: "", hasDescription: false, photoCount: 500, totalPhotoCount: 500, countLabel: "500 photos", isRoot: false),
    hasAlbums: false, hasPhotos: true, isEmpty: false, wallCSS: ".wall{}", framesURL: "frames.json", wallIsSlice: false,
    wallIsGrouped: false, wallIsRows: false, slideshowInterval: 4, lightboxThumbnails: false, tiles: tiles)
let photoPage = PhotoPage(
    site: Site(title: "Site", author: "Me"), title: "Dune", pageTitle: "Dune · Site", rootURL: "../index.html", assetsURL: "../assets/",
    breadcrumbs: crumbs("Dune"), hasBreadcrumbs: true, gap: 8, pagePadding: 12, author: "Ann", hasAuthor: true, footerCredit: "Photos by Ann",
    og: OpenGraph(title: "Dune", siteName: "Site"), tagsURL: "../tags/", searchURL: "../pagefind/", t: t, htmlLang: "en", rtl: false,
    photo: Photo(title: "Dune", alt: "Dune", caption: "Sand and sea", captionHTML: "", hasCaptionHTML: false, hasCaption: true, showCaption: true,
                 date: "2 August 2007, 18:30", isoDate: "2007-08-02T18:30:00", hasDate: true, hasDetails: true,
                 camera: [Setting(name: "Camera", value: "Canon EOS 5D"), Setting(name: "Aperture", value: "f/8")], hasCamera: true,
                 keywords: [Crumb(name: "sea", url: "../tags/sea/", current: false)], hasKeywords: true, creator: "Ann", copyright: "",
                 hasCredits: true, hasCreator: true, hasCopyright: false, people: [], hasPeople: false, places: [], hasPlaces: false,
                 fileName: "Dune.jpg", src: "images/dune-1600.jpg", srcset: "images/dune-800.jpg 800w, images/dune-1600.jpg 1600w",
                 sizes: "100vw", sources: [Source(type: "image/webp", srcset: "images/dune-800.webp 800w", sizes: "100vw")],
                 width: 4000, height: 3000, color: "#c0a080", position: "2", count: "9", isVideo: false, videoURL: "", duration: "",
                 poster: "images/dune-2400.jpg", isLive: false, liveURL: ""),
    album: Back(name: "Nature", url: "index.html#p1"), previous: Neighbour(url: "aqua.html", title: "Aqua"),
    next: Neighbour(url: "storm.html", title: "Storm"))

let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "../../templates"
var library = MustacheLibrary()
for name in ["album", "photo", "partials/head", "partials/header", "partials/footer"] {
    let text = try String(contentsOfFile: folder + "/" + name + ".mustache", encoding: .utf8)
    library.register(try MustacheTemplate(string: text), named: name)
}
var albumValues = dictionary(albumPage) as! [String: Any]
albumValues.removeValue(forKey: "tiles")
let photoValues = dictionary(photoPage) as! [String: Any]
/// The album page from dictionaries, its tiles converted for the page (as Cascade does).
func albumFromDictionaries() -> String {
    var values = albumValues
    values["tiles"] = tiles.map(\.mustache)
    return library.render(values, withTemplate: "album")!
}
precondition(albumFromDictionaries() == library.render(albumPage, withTemplate: "album"), "the album pages differ")
precondition(library.render(photoValues, withTemplate: "photo") == library.render(photoPage, withTemplate: "photo"), "the photo pages differ")

func time(_ label: String, _ count: Int, _ body: () -> String) {
    var bytes = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { bytes += body().utf8.count }
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(count)
    print(label.padding(toLength: 42, withPad: " ", startingAt: 0), String(format: "%8.3f ms a page (%d bytes)", milliseconds, bytes / count))
}
for _ in 0..<3 {
    time("album page, 500 tiles: dictionaries", 20, albumFromDictionaries)
    time("album page, 500 tiles: structs (Mirror)", 20) { library.render(albumPage, withTemplate: "album")! }
    time("photo page: dictionaries", 2000) { library.render(photoValues, withTemplate: "photo")! }
    time("photo page: structs (Mirror)", 2000) { library.render(photoPage, withTemplate: "photo")! }
}
