import Foundation
import Gallery
import Support

/// Which files of an output folder an earlier build made, when there is no catalog to say so
/// (it was deleted with the cache, or damaged and set aside), rebuilt from the site itself: the
/// pages that carry the theme's `<meta name="generator" content="Cascade">` (albums, their
/// further pages, photos, tags), and what those pages refer to of the kinds the tool makes: the
/// images, videos and originals of an album's `thumbs/`, `videos/` and `originals/`, its frame
/// data (and what the frame data refers to), the theme's assets (and what its style sheets refer
/// to, and the theme's other assets beside them, which scripts load), the search index's folder,
/// the feed (named in full, with the site's address, which the page's own `canonical`
/// address gives); and the sitemap when every address it lists is one of those pages (or, a
/// sitemap index, when it lists only its parts, and each of them only those pages).
///
/// The build then goes by this list as by a catalog's: a removed photo's page and images are
/// deleted, and a photo keeps its name. A user's own page (say `about.html`) does not carry the
/// mark, and a file of theirs that no such page refers to is not listed: neither is ever written
/// over or deleted.
enum RecoveredFiles {
    /// The mark of the theme's pages.
    static let mark = "<meta name=\"generator\" content=\"Cascade\">"

    /// The tool's files in the output folder `root` (absolute, real), site-relative, as
    /// `listing` shows it; pages are read on `jobs` threads.
    static func find(root: String, listing: OutputListing, jobs: Int, themeAssets: Set<String> = []) -> Set<String> {
        // Every page of the output folder (its own folders, links not followed).
        var pages: [String] = []
        var others: Set<String> = []
        var folders = [""]
        while let folder = folders.popLast() {
            let prefix = folder.isEmpty ? "" : folder + "/"
            for name in listing.names(in: folder) {
                let path = prefix + name
                switch listing.kind(of: path) {
                case .directory where !(folder.isEmpty && name == SiteWriter.temporaryFolder): folders.append(path)
                case .regular: if name.hasSuffix(".html") { pages.append(path) } else { others.insert(path) }
                default: break
                }
            }
        }
        guard !pages.isEmpty else { return [] }
        // The pages with the mark, and what each refers to.
        let read = parallelMap(pages, jobs: jobs) { page -> (isCascades: Bool, references: [String]) in
            guard let data = FileManager.default.contents(atPath: root + "/" + page) else { return (false, []) }
            let text = String(decoding: data, as: UTF8.self)
            guard hasMark(text) else { return (false, []) }
            // With a base URL, a page names its own address (`canonical`) and the feed's in full:
            // the base is the address but for the page's own path.
            var base: String?
            if let canonical = PageReferences.canonical(in: text) {
                let address = canonical.replacingOccurrences(of: "&amp;", with: "&")
                let own = URLPath.encode(path: page.hasSuffix("index.html") ? String(page.dropLast("index.html".count)) : page)
                if address.hasSuffix(own), address.count > own.count { base = String(address.dropLast(own.count)) }
            }
            return (true, PageReferences.urls(in: text).compactMap { url in
                if let base, url.hasPrefix(base) { return resolve(String(url.dropFirst(base.count)), from: "") }
                return resolve(url, from: folderOf(page))
            })
        }
        var found = Set<String>()
        var pending: [String] = []
        var bundles = Set<String>()
        func adopt(_ path: String) {
            guard others.contains(path) else { return }
            // The search index (the header's `data-index` names its `index.gz`): the whole folder,
            // whose other files only the search box's script names. (Gone through once: every
            // page names it, and a large site's files are hundreds of thousands.)
            if let bundle = searchBundle(path) {
                guard bundles.insert(bundle).inserted else { return }
                for file in others where file.hasPrefix(bundle) { found.insert(file) }
                return
            }
            guard isToolKind(path), found.insert(path).inserted else { return }
            pending.append(path)
        }
        for (page, answer) in zip(pages, read) where answer.isCascades {
            found.insert(page)
            // An album's frame data is fetched by its script (its page names `frames.json`).
            adopt(folderOf(page) + "frames.json")
            answer.references.forEach(adopt)
        }
        // What the frame data and the style sheets refer to, and what that refers to.
        while let file = pending.popLast() {
            // An assets folder a page refers to holds all the theme's assets: also those no page
            // names (the lightbox's script, which the viewer's fetches; the search box's, on a
            // site without search).
            // (`themeAssets` are relative to the assets folder: a file in a folder of it, a
            // theme's `img/logo.png`, names the same folder by its first component.)
            if let top = file.split(separator: "/").first, isAssetsFolder(top) {
                for name in themeAssets { adopt(top + "/" + name) }
            }
            guard file.hasSuffix(".json") || file.hasSuffix(".css"), let data = FileManager.default.contents(atPath: root + "/" + file) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            let references = file.hasSuffix(".css") ? PageReferences.styleURLs(in: text) : jsonStrings(text)
            for reference in references {
                if let path = resolve(reference, from: folderOf(file)) { adopt(path) }
            }
            // A frame chunk is named by its number in the album's frame data.
            if file.hasSuffix("frames.json") {
                let folder = folderOf(file) + "frames/"
                for name in listing.names(in: String(folder.dropLast())) where name.hasSuffix(".json") && Int(name.dropLast(5)) != nil {
                    adopt(folder + name)
                }
            }
        }
        // The sitemap, and its parts when it is an index of them (which lists only its parts).
        let sitemaps = others.filter { !$0.contains("/") && isNumbered($0, "sitemap") }
        for name in sitemaps {
            if isCascadesSitemap(root + "/" + name, pages: found) {
                found.insert(name)
                continue
            }
            let parts = others.filter { SitemapStage.isPart($0, of: name) && isCascadesSitemap(root + "/" + $0, pages: found) }
            guard !parts.isEmpty, isCascadesSitemapIndex(root + "/" + name, parts: parts) else { continue }
            found.insert(name)
            found.formUnion(parts)
        }
        return found
    }

    /// Whether the page `text` carries ``mark`` within its first 4,096 characters (its head).
    static func hasMark(_ text: String) -> Bool {
        // Found in the bytes: a mark that ends within the first 4,096 bytes is within as many
        // characters. (`String.contains` goes through NSString here: a tenth of the time a
        // large site's search took.)
        guard let offset = PageReferences.byteOffset(of: mark, in: text) else { return false }
        return offset + mark.utf8.count <= 4096 || text.prefix(4096).contains(mark)
    }

    /// Whether `name` is `STEM.xml` or `STEM-N.xml` (the next free name of the feed or the sitemap).
    static func isNumbered(_ name: String, _ stem: String) -> Bool {
        guard name.hasPrefix(stem), name.hasSuffix(".xml") else { return false }
        let middle = name.dropFirst(stem.count).dropLast(4)
        return middle.isEmpty || (middle.hasPrefix("-") && Int(middle.dropFirst()) != nil)
    }

    /// The folder (ending in `/`) of the search index whose entry file is `path`, when `path` is
    /// `search/index.gz` (or `search-N/…`, when `search/` was the user's) at the root.
    static func searchBundle(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "index.gz" else { return nil }
        let folder = parts[0]
        guard folder == "search" || (folder.hasPrefix("search-") && Int(folder.dropFirst(7)) != nil) else { return nil }
        return folder + "/"
    }

    /// Whether a folder at the root named `name` is the theme's assets': `assets`, or
    /// `assets-2`, … when that is the user's.
    static func isAssetsFolder(_ name: Substring) -> Bool {
        name == "assets" || (name.hasPrefix("assets-") && Int(name.dropFirst(7)) != nil)
    }

    /// Whether the site-relative `path` (not a page) is of a kind the tool makes.
    static func isToolKind(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = parts.last else { return false }
        if name == "frames.json" { return true }
        if parts.count == 1 { return isNumbered(String(name), "feed") }
        let folder = parts[parts.count - 2]
        if folder == "frames" { return name.hasSuffix(".json") }
        // The theme's assets are at the root's `assets/` (or `assets-2/`, …, when that is the user's).
        if parts.count >= 2, isAssetsFolder(parts[0]) { return true }
        return ["thumbs", "videos", "originals"].contains(folder)
    }

    /// Whether the file at `path` (absolute) is a page with Cascade's generator mark in its head.
    static func isCascadePage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4096) else { return false }
        return String(decoding: head, as: UTF8.self).contains(mark)
    }

    /// The site-relative folder of `path`: "" or ending in `/`.
    static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// The site-relative path a relative URL in a file of the site-relative `folder` names;
    /// nil for an absolute URL, one with a scheme, or one that leaves the site.
    static func resolve(_ url: String, from folder: String) -> String? {
        // (Most URLs have nothing to trim, unescape or decode: Foundation's functions for that,
        // through NSString here, were most of the time a large site's search took.)
        func isPlain(_ byte: UInt8?) -> Bool { byte.map { $0 < 0x80 && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? true }
        var url = isPlain(url.utf8.first) && isPlain(url.utf8.last) ? Substring(url) : Substring(url.trimmingCharacters(in: .whitespaces))
        if let end = url.firstIndex(where: { $0 == "?" || $0 == "#" }) { url = url[..<end] }
        // (A colon before any slash starts a scheme: `https:`, `data:`, `mailto:`.)
        if let colon = url.firstIndex(of: ":"), url[..<colon].firstIndex(of: "/") == nil { return nil }
        let escaped = url.utf8.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "%") }
        guard !url.isEmpty, !url.hasPrefix("/"),
              let decoded = escaped ? String(url).replacingOccurrences(of: "&amp;", with: "&").removingPercentEncoding : String(url)
        else { return nil }
        var parts = folder.split(separator: "/").map(String.init)
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// Every string of a JSON document (what of them are paths is left to the caller).
    static func jsonStrings(_ text: String) -> [String] {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return [] }
        var strings: [String] = []
        func walk(_ value: Any) {
            if let string = value as? String {
                strings.append(string)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            } else if let object = value as? [String: Any] {
                object.values.forEach(walk)
            }
        }
        walk(value)
        return strings
    }

    /// The addresses (`<loc>`, `&amp;` read as `&`) of the XML file at `path` (absolute) whose
    /// root is `element` (`urlset`, a sitemap's; `sitemapindex`, an index's); nil for another file.
    static func sitemapLocations(_ path: String, element: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("<?xml"), text.contains("<" + element) else { return nil }
        return text.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") }
    }

    /// Whether the sitemap index at `path` (absolute) lists only the sitemaps `parts`
    /// (site-relative, at the site's root, beside it), as the tool's own index does.
    static func isCascadesSitemapIndex(_ path: String, parts: Set<String>) -> Bool {
        guard let locations = sitemapLocations(path, element: "sitemapindex") else { return false }
        return !locations.isEmpty && locations.allSatisfy { location in
            guard let slash = location.lastIndex(of: "/") else { return false }
            return parts.contains(String(location[location.index(after: slash)...]))
        }
    }

    /// Whether the sitemap at `path` (absolute) lists only addresses of `pages` (site-relative:
    /// a page, or an album's folder for its `index.html`), as the tool's own sitemap does.
    static func isCascadesSitemap(_ path: String, pages: Set<String>) -> Bool {
        guard let locations = sitemapLocations(path, element: "urlset") else { return false }
        // Each address ends in the URL of one of the pages (its base is not known here).
        let suffixes = Set(pages.flatMap { page -> [String] in
            let url = URLPath.encode(path: page)
            return page.hasSuffix("index.html") ? [url, String(url.dropLast("index.html".count))] : [url]
        })
        return locations.allSatisfy { location in
            if location.hasSuffix("/"), suffixes.contains("") { return true }
            var index = location.startIndex
            while let slash = location[index...].firstIndex(of: "/") {
                index = location.index(after: slash)
                if suffixes.contains(String(location[index...])) { return true }
            }
            return false
        }
    }
}
