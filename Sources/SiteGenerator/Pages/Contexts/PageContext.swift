/// What a page template is rendered from: one typed value per page kind (``AlbumPageContext``,
/// ``PhotoPageContext``, ``TagListContext``), built by ``PageRenderer``.
///
/// Each property is named as the templates name the variable, so a misspelt variable in Swift
/// does not compile. The values reach swift-mustache as a dictionary, made in ONE place per
/// type (its `mustache`): swift-mustache reads a dictionary by key but a struct through
/// `Mirror`, which made a page 6× (an album's of 500 tiles) to 9× (a photo's) slower to
/// render (BENCHMARKS.md, "Template contexts"); and a page's fingerprint (its key in the
/// catalog) is the hash of that dictionary, so pages made before these types existed are not
/// made again.
///
/// The conversions keep the dictionaries as they always were: a key that was only set when it
/// had a value (`feedURL`, `previous`, `original`...) is an optional that is left out when nil.
protocol PageContext: Sendable {
    /// The template that renders it (`album` for `album.mustache`).
    static var template: String { get }
    /// The variables as swift-mustache and ``FingerprintHasher/combine(context:)`` take them.
    var mustache: [String: Any] { get }
}

/// A link to another page: previous and next in an album's pagination (`url` alone) or
/// beside a photo (with the other photo's `title`).
struct PageLink: Sendable {
    /// Relative to the page that links.
    let url: String
    /// The linked photo's title (``PageRenderer/linkTitle(_:)``); nil in pagination.
    var title: String? = nil

    var mustache: [String: Any] {
        var values: [String: Any] = ["url": url]
        if let title { values["title"] = title }
        return values
    }
}

/// An image as a `<picture>` shows it: the `<img>`'s file and its files at every width, each
/// further format's (`sources`), its size, alt text and placeholder colour. A tile, an album
/// card's cover and a photo's page describe their image alike, so that the templates find the
/// same variables (`src`, `srcset`, `sizes`, `sources`, `width`, `height`, `alt`, `color`) in
/// each, beside the context's own.
struct PictureImage: Sendable {
    /// The `<img>`'s file, relative to the page.
    let src: String
    let srcset: String
    let sizes: String
    let sources: [PictureSource]
    /// The size the page reserves for it (`width` and `height` attributes).
    let width: Int
    let height: Int
    let alt: String
    /// The placeholder colour shown until the image loads.
    let color: String

    /// Adds the variables to those of the context that shows the image (its `mustache`).
    func add(to values: inout [String: Any]) {
        values["src"] = src
        values["srcset"] = srcset
        values["sizes"] = sizes
        values["sources"] = sources.map(\.mustache)
        values["width"] = width
        values["height"] = height
        values["alt"] = alt
        values["color"] = color
    }
}

/// One `<source>` of a `<picture>`: an image format besides the `<img>`'s (WebP, AVIF) and
/// its images.
struct PictureSource: Sendable {
    /// The format's MIME type (`image/webp`).
    let type: String
    let srcset: String
    let sizes: String

    var mustache: [String: Any] { ["type": type, "srcset": srcset, "sizes": sizes] }
}
