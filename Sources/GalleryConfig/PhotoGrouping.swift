/// How an album's photos are split into sections by capture date, each under a header
/// (`group` in `cascade.yml` and in an album's `index.md`).
public enum PhotoGrouping: String, Sendable, Hashable, CaseIterable {
    /// One section per day: "14 July 2024".
    case day
    /// One section per month: "July 2024".
    case month
    /// One section per year: "2024".
    case year
    /// No sections (the default).
    case none

    /// The section key of a capture date: equal for the photos of one section, ordered like the
    /// sections (oldest first); nil for an undated photo (its section, "Undated", comes last).
    /// Always nil for ``none``. A date coarser than the sections has a section of its own before
    /// those of its period (by month, "1987" comes before "January 1987").
    public func key(_ date: GalleryDate?) -> Int? {
        guard let date else { return nil }
        let month = date.precision >= .month ? date.month : 0
        let day = date.precision >= .day ? date.day : 0
        switch self {
        case .day: return (date.year * 100 + month) * 100 + day
        case .month: return date.year * 100 + month
        case .year: return date.year
        case .none: return nil
        }
    }

    /// The header of the section with key `key`: "14 July 2024", "July 2024", "2024", or
    /// "Undated" for nil (`undated`: that word in the site's language), with the month names
    /// and date forms of `names` (and "July 1987" or "1987" for the section of a coarser date).
    public func label(_ key: Int?, names: DateNames = .english, undated: String = "Undated") -> String {
        guard let key else { return undated }
        switch self {
        case .day where key % 100 == 0 && (key / 100) % 100 == 0: return String(key / 10_000)
        case .day where key % 100 == 0: return names.month(year: key / 10_000, month: (key / 100) % 100)
        case .month where key % 100 == 0: return String(key / 100)
        case .day: return names.day(year: key / 10_000, month: (key / 100) % 100, day: key % 100)
        case .month: return names.month(year: key / 100, month: key % 100)
        case .year, .none: return String(key)
        }
    }
}
