import Foundation

/// Month and day names of a language, from CLDR through Foundation, for ``DateFormat``'s
/// name tokens and the headers of grouped albums.
///
/// English keeps the names and header forms Cascade always wrote ("2 August 2007",
/// "July 2024"); every other language takes CLDR's: French "14 juillet 2024", Polish
/// "lipiec 2024" (a month standing alone) and "14 lipca 2024" (a month in a date).
public struct DateNames: Sendable, Hashable {
    /// The language, or nil for Cascade's English.
    public let language: LanguageTag?
    /// Month names as used in a date (January first).
    public let months: [String]
    /// Abbreviated month names as used in a date.
    public let shortMonths: [String]
    /// Weekday names, Sunday first.
    public let weekdays: [String]
    /// Abbreviated weekday names, Sunday first.
    public let shortWeekdays: [String]

    /// Cascade's English names.
    public static let english = DateNames(language: nil)

    /// The names of `language` (CLDR's), or English's for an English tag or nil.
    public init(language: LanguageTag?) {
        guard let language, !language.isEnglish else {
            self.language = nil
            months = DateFormat.monthNames
            shortMonths = DateFormat.monthNames.map { String($0.prefix(3)) }
            weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
            shortWeekdays = weekdays.map { String($0.prefix(3)) }
            return
        }
        self.language = language
        let formatter = Self.formatter(language)
        months = formatter.monthSymbols
        shortMonths = formatter.shortMonthSymbols
        weekdays = formatter.weekdaySymbols
        shortWeekdays = formatter.shortWeekdaySymbols
    }

    /// A grouped album's month header: "July 2024", "juillet 2024", "2024年7月".
    public func month(year: Int, month: Int) -> String {
        guard let language else { return "\(months[month - 1]) \(year)" }
        return Self.string(year: year, month: month, day: 1, template: "yMMMM", language)
    }

    /// A grouped album's day header: "14 July 2024", "14 juillet 2024", "2024年7月14日".
    public func day(year: Int, month: Int, day: Int) -> String {
        guard let language else { return "\(day) \(months[month - 1]) \(year)" }
        return Self.string(year: year, month: month, day: day, template: "yMMMMd", language)
    }

    /// The weekday of a date of the Gregorian calendar, 0 for Sunday (Zeller's congruence,
    /// which needs no calendar object and no time zone).
    public static func weekday(year: Int, month: Int, day: Int) -> Int {
        let m = month < 3 ? month + 12 : month
        let y = month < 3 ? year - 1 : year
        let h = (day + (13 * (m + 1)) / 5 + y + y / 4 - y / 100 + y / 400) % 7  // 0 = Saturday
        return (h + 6) % 7
    }

    private static func formatter(_ language: LanguageTag) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = language.locale
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.locale = language.locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        return formatter
    }

    private static func string(year: Int, month: Int, day: Int, template: String, _ language: LanguageTag) -> String {
        let formatter = formatter(language)
        formatter.setLocalizedDateFormatFromTemplate(template)
        let components = DateComponents(year: year, month: month, day: day, hour: 12)
        guard let date = formatter.calendar.date(from: components) else { return "\(year)-\(month)-\(day)" }
        return formatter.string(from: date)
    }
}
