/// Why the catalog cannot be opened, read or written. `SiteGenerator` reports it as the
/// `SiteError` case of the same name, which says it in a sentence.
package enum CatalogError: Error, Sendable, Equatable {
    /// The catalog cannot be opened or written.
    case catalog(path: String, reason: String)
    /// The catalog was found damaged while it was read (the build sets it aside and goes on).
    case catalogDamaged(path: String, reason: String)
}
