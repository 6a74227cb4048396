import Foundation
import Yams

/// What an album's `index.md` says about the album: YAML front matter between `---` lines at the
/// top of the file, and a Markdown body (the album's description).
///
/// ```markdown
/// ---
/// title: Summer in Brittany
/// date: 2024-07-14
/// cover: IMG_0042.jpg
/// sort: name
/// group: day
/// layout: columns
/// hidden: false
/// ---
/// Two weeks on the coast, mostly *rain*.
/// ```
///
/// Parsing never fails as a whole: each bad key is a problem (with its line) and is ignored,
/// the valid keys are kept. Unreadable YAML, or an opening `---` without a closing one, makes the
/// whole front matter a single problem; without a closing line the body is unknown too, so the
/// file gives nothing.
public struct AlbumFrontMatter: Sendable, Hashable {
    /// The album's title instead of its folder name.
    public var title: String?
    /// The album's date (instead of its oldest photo's), for sorting albums by date.
    public var date: GalleryDate?
    /// The file name of the photo that represents the album (a photo directly in the album's folder).
    public var cover: String?
    /// The line of `cover:` in the file, for a message when no such photo exists.
    public var coverLine: Int?
    /// The order of this album's photos and sub-albums instead of the site's `sort`.
    public var sort: AlbumSortOrder?
    /// How this album's photos are split into sections instead of the site's `group`.
    public var group: PhotoGrouping?
    /// How this album is laid out instead of the site's `layout`.
    public var layout: AlbumLayout?
    /// Whether the album is left out of its parent's list (it is still built and reachable by its URL).
    public var hidden: Bool = false
    /// File names of photos in this album's folder, in the order they are shown; the photos not
    /// listed follow, in the album's `sort` order.
    public var order: [String] = []

    /// Keys the front matter may hold.
    public static let keys = ["title", "date", "cover", "sort", "group", "layout", "hidden", "order"]

    /// Creates front matter.
    public init(title: String? = nil, date: GalleryDate? = nil, cover: String? = nil, coverLine: Int? = nil,
                sort: AlbumSortOrder? = nil, group: PhotoGrouping? = nil, layout: AlbumLayout? = nil, hidden: Bool = false) {
        self.title = title
        self.date = date
        self.cover = cover
        self.coverLine = coverLine
        self.sort = sort
        self.group = group
        self.layout = layout
        self.hidden = hidden
    }
}

/// An `index.md` split into front matter and Markdown body, with the problems found.
public struct AlbumIndexFile: Sendable, Hashable {
    /// The front matter's settings (all defaults when there is none, or it is unreadable).
    public var frontMatter: AlbumFrontMatter
    /// The Markdown after the front matter (the whole file when there is no front matter).
    public var body: String
    /// The line of the file where `body` starts (1 without front matter).
    public var bodyLine: Int
    /// Problems found, in line order; each names the file, the line and the key.
    public var problems: [ConfigurationError]

    /// Splits and parses the text of an `index.md`; `file` names it in problems.
    public init(parsing text: String, file: String) {
        frontMatter = AlbumFrontMatter()
        body = text
        bodyLine = 1
        problems = []
        // Lines on Unicode scalars: "\r\n" is one Character in Swift, and a byte order mark may lead.
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        let lines = String(scalars).replacingOccurrences(of: "\r\n", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, Self.isDelimiter(first, opening: true) else { return }
        guard let closing = lines.indices.dropFirst().first(where: { Self.isDelimiter(lines[$0], opening: false) }) else {
            problems.append(ConfigurationError(
                kind: .syntax, file: file, line: 1,
                reason: "the front matter that starts on line 1 with --- has no closing --- line; the file is ignored"))
            body = ""
            return
        }
        body = lines[(closing + 1)...].joined(separator: "\n")
        bodyLine = closing + 2
        let yaml = lines[1..<closing].joined(separator: "\n")
        frontMatter = Self.parseFrontMatter(yaml, file: file, problems: &problems)
        problems.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    private static func isDelimiter(_ line: Substring, opening: Bool) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed == "---" || (!opening && trimmed == "...")
    }

    private static func parseFrontMatter(_ yaml: String, file: String, problems: inout [ConfigurationError]) -> AlbumFrontMatter {
        let reader = YAMLReader(file: file, lineOffset: 1)
        var result = AlbumFrontMatter()
        let root: Node
        do throws(ConfigurationError) {
            guard let node = try reader.compose(yaml), !node.isNullValue else { return result }
            root = node
        } catch {
            problems.append(error)
            return result
        }
        guard let mapping = root.mapping else {
            problems.append(reader.error(.wrongType, nil, root,
                                         "the front matter must be key: value lines (\(AlbumFrontMatter.keys.joined(separator: ", "))), found \(reader.describe(root))"))
            return result
        }
        // Check the keys one by one so that one bad key does not lose the others.
        for (keyNode, value) in mapping {
            let single = Node.mapping(Node.Mapping([(keyNode, value)], mapping.tag, mapping.style, mapping.mark))
            do throws(ConfigurationError) {
                for entry in try reader.entries(of: single, at: "", allowed: AlbumFrontMatter.keys, what: "front matter") {
                    switch entry.key {
                    case "title": result.title = try reader.text(entry).get()
                    case "date":
                        let text = try reader.text(entry).get()
                        guard let date = GalleryDate(text) else {
                            throw reader.error(.badValue, entry.path, entry.value,
                                               "must be a date such as 2024-07-14 or 2024-07-14 18:30, not \"\(text)\"")
                        }
                        result.date = date
                    case "cover":
                        let name = try reader.text(entry).get()
                        guard !name.isEmpty, !name.contains("/") else {
                            throw reader.error(.badValue, entry.path, entry.value,
                                               "must be the file name of a photo in this album's folder (no path), not \"\(name)\"")
                        }
                        result.cover = name
                        result.coverLine = reader.line(entry.value)
                    case "sort": result.sort = try reader.choice(entry.value, at: entry.path, as: AlbumSortOrder.self).get()
                    case "layout": result.layout = try reader.choice(entry.value, at: entry.path, as: AlbumLayout.self).get()
                    case "group": result.group = try reader.choice(entry.value, at: entry.path, as: PhotoGrouping.self).get()
                    case "hidden": result.hidden = try reader.bool(entry).get()
                    case "order":
                        var names: [String] = []
                        for (path, node) in try reader.items(entry, what: "file names of photos in this album's folder").get() {
                            guard let name = node.scalar?.string.trimmingCharacters(in: .whitespaces), !name.isEmpty, !name.contains("/") else {
                                throw reader.error(.badValue, path, node, "must be the file name of a photo in this album's folder (no path)")
                            }
                            names.append(name)
                        }
                        result.order = names
                    default: break
                    }
                }
            } catch {
                problems.append(error)
            }
        }
        return result
    }
}
