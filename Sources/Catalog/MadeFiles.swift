/// The files a build made, site-relative, in two sets that never share a file: its pages' (the
/// HTML pages, frame data and theme assets, as the page stage gathered them) and the others (the
/// photos' images, originals and videos; the sitemap and feed). Kept apart so that the photos'
/// files can be gathered into a set on another core while the pages are made (a large library's
/// 200,000 image paths, hashed), and not merged with the pages' afterwards.
package struct MadeFiles: Sendable {
    package var pages: Set<String>
    package var others: Set<String>

    package init(pages: Set<String>, others: Set<String> = []) {
        self.pages = pages
        self.others = others
    }

    /// How many files (the sets share none).
    package var count: Int { pages.count + others.count }

    package func contains(_ path: String) -> Bool {
        pages.contains(path) || others.contains(path)
    }

    /// The files but those in `excluded`.
    package func subtracting(_ excluded: Set<String>) -> MadeFiles {
        MadeFiles(pages: pages.subtracting(excluded), others: others.subtracting(excluded))
    }

    /// The files for which `isIncluded` is true, in no particular order.
    package func filter(_ isIncluded: (String) -> Bool) -> [String] {
        pages.filter(isIncluded) + others.filter(isIncluded)
    }
}
