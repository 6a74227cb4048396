/// A calendar date with an optional time of day, as photos and albums carry it: no time zone
/// (EXIF has none), compared field by field. A date without a time sorts before the same day
/// with any time.
public struct GalleryDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Hour, minute and second, when the source gave a time.
    public var time: (hour: Int, minute: Int, second: Int)? {
        get { hasTime ? (hour, minute, second) : nil }
        set {
            if let newValue {
                (hour, minute, second, hasTime) = (newValue.hour, newValue.minute, newValue.second, true)
            } else {
                (hour, minute, second, hasTime) = (0, 0, 0, false)
            }
        }
    }
    private var hour = 0
    private var minute = 0
    private var second = 0
    private var hasTime = false

    /// Creates a date; `nil` when a field is out of range (month 13, February 30, hour 24, ...).
    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        if let hour {
            guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
            (self.hour, self.minute, self.second, hasTime) = (hour, minute, second, true)
        }
    }

    /// Reads `2024-05-31`, `2024-05-31 14:30`, `2024-05-31 14:30:15`, the same with `T` between
    /// date and time, and EXIF's `2024:05:31 14:30:15`. A trailing time zone (`Z`, `+02:00`) or
    /// fraction of a second is ignored. `nil` for anything else, and for EXIF's zeroed "unknown" dates.
    public init?(_ text: String) {
        let scalars = Array(text.unicodeScalars.filter { !$0.properties.isWhitespace || $0 == " " })
        var chars = scalars.map(Character.init)
        while chars.first == " " { chars.removeFirst() }
        while chars.last == " " { chars.removeLast() }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            let digits = chars[range]
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(digits))
        }
        guard chars.count >= 10, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (chars[4] == "-" && chars[7] == "-") || (chars[4] == ":" && chars[7] == ":") else { return nil }
        if chars.count == 10 {
            self.init(year: year, month: month, day: day)
            return
        }
        guard chars[10] == " " || chars[10] == "T" || chars[10] == "t", chars.count >= 16,
              let hour = number(11..<13), chars[13] == ":", let minute = number(14..<16) else { return nil }
        var second = 0
        var rest = 16
        if chars.count >= 19, chars[16] == ":", let value = number(17..<19) {
            second = value
            rest = 19
        }
        if rest < chars.count {
            // Allow a fraction of a second and a time zone, nothing else.
            let tail = String(chars[rest...])
            guard tail.allSatisfy({ "0123456789.:+-Zz ".contains($0) }) else { return nil }
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// `2024-05-31` or `2024-05-31 14:30:15`.
    public var description: String {
        let date = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        return hasTime ? date + " \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" : date
    }

    /// `2024-05-31` or `2024-05-31T14:30:15` (for HTML's `<time datetime>` and sitemaps).
    public var iso8601: String {
        description.replacingFirstSpace(with: "T")
    }

    /// All fields in one number that orders like the date.
    private var key: Int {
        (((((year * 100 + month) * 100 + day) * 100 + hour) * 100 + minute) * 100 + second) * 2 + (hasTime ? 1 : 0)
    }

    public static func < (a: GalleryDate, b: GalleryDate) -> Bool { a.key < b.key }

    public static func == (a: GalleryDate, b: GalleryDate) -> Bool { a.key == b.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

extension String {
    fileprivate func replacingFirstSpace(with replacement: Character) -> String {
        guard let index = firstIndex(of: " ") else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: String(replacement))
        return copy
    }
}
