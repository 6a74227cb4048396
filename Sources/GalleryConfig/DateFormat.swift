/// How dates are shown to people (`date_format` in `cascade.yml`): a pattern whose tokens are
/// replaced by the date's fields and whose other characters are kept as they are.
///
/// Tokens: `YYYY` year, `MMMM` month name (August), `MMM` short name (Aug), `MM` month with
/// two digits, `M` month number, `dddd` weekday name (Saturday), `ddd` short weekday name (Sat),
/// `DD` day with two digits, `D` day, `HH` hour (00-23), `H` hour, `mm` minute, `ss` second.
/// Names are the site's language's, from CLDR (``DateNames``): `D MMMM YYYY` is
/// "14 juillet 2024" in French. The default, `D MMMM YYYY, HH:mm`, gives "2 August 2007,
/// 18:30". For a date without a time of day, the pattern ends before its first time token
/// (and the text between it and the date): "2 August 2007"; a pattern that starts with the
/// time loses the time tokens and the text after each.
///
/// A date known only to the month or the year (a slide scan's `1987-07`) shows what it has:
/// each token finer than it (the day, the month) is dropped with the text after it, or, for
/// the last token, with the text before it: "July 1987" and "1987" by the default pattern,
/// "1987-07" by `YYYY-MM-DD`, "07.1987" by `DD.MM.YYYY`. A pattern left with no token then
/// shows "July 1987" or "1987".
public struct DateFormat: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written in `cascade.yml`.
    public var pattern: String {
        didSet { parts = Self.split(pattern) }
    }
    /// The pattern cut into tokens and text, once: a large site's pages show thousands of dates.
    private var parts: [Part]

    /// A token of the pattern, or the text between two.
    private struct Part: Sendable, Hashable {
        var text: String
        var isToken: Bool
    }

    /// "2 August 2007, 18:30".
    public static let `default` = DateFormat(pattern: "D MMMM YYYY, HH:mm")

    private static let tokens = ["YYYY", "MMMM", "MMM", "MM", "M", "dddd", "ddd", "DD", "D", "HH", "H", "mm", "ss"]
    private static let timeTokens: Set<String> = ["HH", "H", "mm", "ss"]
    private static let dayTokens: Set<String> = ["DD", "D"]
    private static let monthTokens: Set<String> = ["MMMM", "MMM", "MM", "M"]
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]

    public init(pattern: String) {
        self.pattern = pattern
        parts = Self.split(pattern)
    }

    public var description: String { pattern }

    /// Whether the pattern shows anything of a date (at least one token).
    public var hasTokens: Bool {
        parts.contains { $0.isToken }
    }

    /// The date as the pattern shows it, with the month and day names of `names`.
    public func string(_ date: GalleryDate, names: DateNames = .english) -> String {
        var parts = self.parts
        if date.time == nil, let first = parts.firstIndex(where: { $0.isToken && Self.timeTokens.contains($0.text) }) {
            if parts[..<first].contains(where: \.isToken) {
                // The date comes first: it ends before the text that leads to the time (", ", " at ").
                parts.removeSubrange(first...)
                while let last = parts.last, !last.isToken { parts.removeLast() }
            } else {
                // The time comes first ("HH:mm, D MMMM"): drop it and the text after each of its tokens.
                var kept: [Part] = []
                var dropping = false
                for part in parts {
                    if part.isToken { dropping = Self.timeTokens.contains(part.text) }
                    if !dropping { kept.append(part) }
                }
                parts = kept
            }
        }
        if date.precision < .day {
            let dropped = date.precision == .year ? Self.dayTokens.union(Self.monthTokens) : Self.dayTokens
            parts = Self.dropping(dropped, from: parts)
            if !parts.contains(where: \.isToken) {
                parts = Self.split(date.precision == .year ? "YYYY" : "MMMM YYYY")
            }
        }
        let time = date.time ?? (0, 0, 0)
        return parts.map { part -> String in
            guard part.isToken else { return part.text }
            switch part.text {
            case "YYYY": return pad(date.year, 4)
            case "MMMM": return names.months[date.month - 1]
            case "MMM": return names.shortMonths[date.month - 1]
            case "dddd": return names.weekdays[DateNames.weekday(year: date.year, month: date.month, day: date.day)]
            case "ddd": return names.shortWeekdays[DateNames.weekday(year: date.year, month: date.month, day: date.day)]
            case "MM": return pad(date.month, 2)
            case "M": return String(date.month)
            case "DD": return pad(date.day, 2)
            case "D": return String(date.day)
            case "HH": return pad(time.hour, 2)
            case "H": return String(time.hour)
            case "mm": return pad(time.minute, 2)
            default: return pad(time.second, 2)
            }
        }.joined()
    }

    /// `parts` without the tokens in `dropped`, each with the literal text after it, or before
    /// it when no token follows.
    private static func dropping(_ dropped: Set<String>, from parts: [Part]) -> [Part] {
        var kept = parts
        while let index = kept.firstIndex(where: { $0.isToken && dropped.contains($0.text) }) {
            let tokenAfter = kept[(index + 1)...].contains { $0.isToken }
            if tokenAfter, index + 1 < kept.count, !kept[index + 1].isToken {
                kept.removeSubrange(index...(index + 1))
            } else if !tokenAfter, index > 0, !kept[index - 1].isToken, kept[..<index].contains(where: \.isToken) {
                kept.removeSubrange((index - 1)...index)
            } else {
                kept.remove(at: index)
            }
        }
        return kept
    }

    /// The pattern cut into tokens and the literal text between them.
    private static func split(_ pattern: String) -> [Part] {
        var parts: [Part] = []
        var rest = Substring(pattern)
        while !rest.isEmpty {
            if let token = tokens.first(where: { rest.hasPrefix($0) }) {
                parts.append(Part(text: token, isToken: true))
                rest = rest.dropFirst(token.count)
            } else {
                if let last = parts.last, !last.isToken {
                    parts[parts.count - 1].text.append(rest.first!)
                } else {
                    parts.append(Part(text: String(rest.first!), isToken: false))
                }
                rest = rest.dropFirst()
            }
        }
        return parts
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
