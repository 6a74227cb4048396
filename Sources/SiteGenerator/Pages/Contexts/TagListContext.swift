/// The list of an index's entries (`tags.mustache`): all tags, people or places, each with
/// its page and count.
struct TagListContext: PageContext {
    static let template = "tags"

    let frame: PageFrame
    let tags: [TagListEntry]

    var hasTags: Bool { !tags.isEmpty }

    var mustache: [String: Any] {
        var values = frame.mustache
        values["tags"] = tags.map(\.mustache)
        values["hasTags"] = hasTags
        return values
    }
}

/// One entry of a ``TagListContext``.
struct TagListEntry: Sendable {
    let name: String
    /// Its first page, relative to the list.
    let url: String
    /// How many photos it has, as the language writes numbers, and as "3 photos".
    let count: String
    let countLabel: String

    var mustache: [String: Any] { ["name": name, "url": url, "count": count, "countLabel": countLabel] }
}
