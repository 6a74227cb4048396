/// The variables every page has, whatever its kind: its titles, where the root, the assets, the
/// feed, the index pages and the search are from it, its breadcrumbs, whom its photos are by,
/// and its Open Graph preview (`partials/head`, `partials/header`, `partials/footer`).
/// Built by ``PageRenderer/frame(directory:title:ancestors:page:image:author:)``.
struct PageFrame: Sendable {
    /// The site's title and author as `cascade.yml` gives them (`{{site.title}}`).
    let site: SiteInfo
    /// The page's own title (its `h1`).
    let title: String
    /// Its `<title>`: the site's title alone on the root page, else "title · site".
    let pageTitle: String
    let rootURL: String
    /// The `assets/` folder, with its trailing slash.
    let assetsURL: String
    /// From the root down to the page itself; empty on the root page.
    let breadcrumbs: [Breadcrumb]
    /// The site's gap between tiles and padding around the page, CSS px.
    let gap: Int
    let pagePadding: Int
    /// Whom the page's photos are by (`<meta name="author">`), nil when nobody is known.
    let author: String?
    /// "Photos by …" in the site's language, for the footer; nil without an author.
    let footerCredit: String?
    let og: OpenGraph
    /// The Atom feed's absolute address; nil without `base_url`.
    let feedURL: String?
    /// The index pages (``TagKind``), each nil when the site has none of its entries.
    let tagsURL: String?
    let peopleURL: String?
    let placesURL: String?
    /// The search index's folder (where `index.gz` is), nil without search.
    let searchURL: String?

    var hasBreadcrumbs: Bool { breadcrumbs.count > 1 }
    var hasAuthor: Bool { author != nil }

    var mustache: [String: Any] {
        var values: [String: Any] = [
            "site": site.mustache,
            "title": title,
            "pageTitle": pageTitle,
            "rootURL": rootURL,
            "assetsURL": assetsURL,
            "breadcrumbs": breadcrumbs.map(\.mustache),
            "hasBreadcrumbs": hasBreadcrumbs,
            "gap": gap,
            "pagePadding": pagePadding,
            "author": author ?? "",
            "hasAuthor": hasAuthor,
            "footerCredit": footerCredit ?? "",
            "og": og.mustache,
        ]
        if let feedURL { values["feedURL"] = feedURL }
        if let tagsURL { values["tagsURL"] = tagsURL }
        if let peopleURL { values["peopleURL"] = peopleURL }
        if let placesURL { values["placesURL"] = placesURL }
        if let searchURL { values["searchURL"] = searchURL }
        return values
    }
}

/// The site as a whole (`{{site.title}}`, `{{site.author}}`).
struct SiteInfo: Sendable {
    let title: String
    /// `cascade.yml`'s `author`, empty without one.
    let author: String

    var mustache: [String: Any] { ["title": title, "author": author] }
}

/// One step of a page's breadcrumbs: an ancestor with its link, or the page itself (`current`).
struct Breadcrumb: Sendable {
    let name: String
    /// Relative to the page; nil for the page itself.
    let url: String?
    let current: Bool

    var mustache: [String: Any] {
        var values: [String: Any] = ["name": name]
        if let url { values["url"] = url }
        if current { values["current"] = true }
        return values
    }
}

/// What a shared link to the page shows (Open Graph): absolute addresses only with `base_url`.
struct OpenGraph: Sendable {
    let title: String
    let siteName: String
    /// The page's absolute address.
    let url: String?
    /// The absolute address of the image that represents the page.
    let image: String?

    var mustache: [String: Any] {
        var values: [String: Any] = ["title": title, "siteName": siteName]
        if let url { values["url"] = url }
        if let image { values["image"] = image }
        return values
    }
}
