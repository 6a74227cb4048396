/// How an album's photos are laid out (`layout` in `cascade.yml` and in an album's `index.md`).
public enum AlbumLayout: String, Sendable, Hashable, CaseIterable {
    /// A waterfall: columns of one width, each photo under the shortest column (the default).
    case columns
    /// Justified rows: as many photos in a row as fit at about the breakpoint's `row_height`,
    /// each row scaled to fill the width exactly; the last row keeps the target height.
    case rows
}
