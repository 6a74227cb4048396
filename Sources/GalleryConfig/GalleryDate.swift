/// A calendar date as photos and albums carry it: a year, a month or a day (a slide scan's
/// `1987-07` is a month), with an optional time of day, and the time zone when the source gave
/// one.
///
/// The fields are the local wall time, as the photographer's clock showed it. With a zone
/// (``offset``) the date is also an instant; without one it "floats" (EXIF before 2.31 has no
/// zone). Dates are ordered by their instants; a floating date has none, and is ordered as
/// though it were in the zone ``assumingZone(_:)`` gave it (the scan gives it that of the
/// album's item nearest to it that has one: a camera without a zone beside a phone with one,
/// both showing the local time of the place), else as though in UTC. (Ordering floating dates
/// by wall time against zoned ones by instant made no order at all: 21:00 floating came before
/// 02:00+02:00, which came before 20:30-04:00, which came before 21:00.) A date
/// written in UTC alone (`Z`, as a video's `creation_time` is) is an instant whose local zone is
/// not known (``isUniversal``): ``localized(toOffset:)`` gives its local time once one is.
/// A coarser date comes before the finer ones of its period: `1987` before `1987-01-01`, a day
/// without a time before the same day with any time.
public struct GalleryDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// How much of the date the source gave.
    public enum Precision: Int, Sendable, Hashable, Comparable {
        case year, month, day, time

        public static func < (a: Precision, b: Precision) -> Bool { a.rawValue < b.rawValue }
    }

    public var year: Int
    /// The month; 1 for a date of year precision (its period starts in January).
    public var month: Int
    /// The day; 1 for a date of year or month precision.
    public var day: Int
    /// How much of the date the source gave: ``time`` when it has a time of day.
    public private(set) var precision: Precision = .day
    /// Minutes east of UTC of the local time (New York in summer: -240), when the source gave a
    /// zone; nil for a floating date.
    public private(set) var offset: Int?
    /// Whether the date was written in UTC (`Z`) with its local zone unknown: ``offset`` is 0,
    /// but the wall time is UTC's, not the photographer's.
    public private(set) var isUniversal = false
    /// For a floating date with a time: the zone it is ordered in (``assumingZone(_:)``), and
    /// that ``utcTimestamp`` takes it in. It is not shown: the date stays floating on pages.
    public private(set) var assumedOffset: Int?
    /// Hour, minute and second, when the source gave a time.
    public var time: (hour: Int, minute: Int, second: Int)? {
        get { precision == .time ? (hour, minute, second) : nil }
        set {
            if let newValue {
                (hour, minute, second, precision) = (newValue.hour, newValue.minute, newValue.second, .time)
            } else {
                (hour, minute, second) = (0, 0, 0)
                if precision == .time { precision = .day }
                assumedOffset = nil  // (a date without a time has no instant to order by)
            }
        }
    }
    private var hour = 0
    private var minute = 0
    private var second = 0

    /// Creates a date; `nil` when a field is out of range (month 13, February 30, hour 24, ...).
    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        if let hour {
            guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
            (self.hour, self.minute, self.second, precision) = (hour, minute, second, .time)
        }
    }

    /// Creates a date of year precision (`month` nil) or month precision; nil when out of range.
    public init?(year: Int, month: Int?) {
        self.init(year: year, month: month ?? 1, day: 1)
        precision = month == nil ? .year : .month
    }

    /// Reads `2024-05-31`, `2024-05-31 14:30`, `2024-05-31 14:30:15`, the same with `T` between
    /// date and time, and EXIF's `2024:05:31 14:30:15`; a year-month (`1987-07`) or a year
    /// (`1987`) as a date of that precision, and EXIF's `1987:07:00 …` or `1987:00:00 …` too (as
    /// scanners write an unknown day or month). A fraction of a second is ignored; a time zone
    /// after the time (`Z`, `+02:00`, `-0400`, `+02`) is kept (``offset``), a malformed one
    /// ignored. `nil` for anything else, and for EXIF's zeroed "unknown" dates.
    public init?(_ text: String) {
        // One byte per Unicode scalar, as the positions below count them: an ASCII one as it is,
        // any other as 0xFF (never a digit nor a separator); white space but the space left
        // out. (Bytes, not Characters: every photo's dates are read on every scan.)
        var chars: [UInt8] = []
        chars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if (0x09...0x0D).contains(byte) { continue }
                chars.append(byte)
            } else if !scalar.properties.isWhitespace {
                chars.append(0xFF)
            }
        }
        let space = UInt8(ascii: " ")
        while chars.first == space { chars.removeFirst() }
        while chars.last == space { chars.removeLast() }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for byte in chars[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        // A year, or a year and month, alone.
        if chars.count == 4, let year = number(0..<4) {
            self.init(year: year, month: nil)
            return
        }
        if chars.count == 7, chars[4] == dash, let year = number(0..<4), let month = number(5..<7) {
            self.init(year: year, month: month)
            return
        }
        guard chars.count >= 10, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (chars[4] == dash && chars[7] == dash) || (chars[4] == colon && chars[7] == colon) else { return nil }
        // A zeroed day or month: known to the month or the year only (the time is meaningless then).
        if year > 0, day == 0 {
            self.init(year: year, month: month == 0 ? nil : month)
            return
        }
        if chars.count == 10 {
            self.init(year: year, month: month, day: day)
            return
        }
        guard chars[10] == space || chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: "t"), chars.count >= 16,
              let hour = number(11..<13), chars[13] == colon, let minute = number(14..<16) else { return nil }
        var second = 0
        var rest = 16
        if chars.count >= 19, chars[16] == colon, let value = number(17..<19) {
            second = value
            rest = 19
        }
        var zone: (offset: Int, universal: Bool)?
        if rest < chars.count {
            // Allow a fraction of a second and a time zone, nothing else.
            var tail = chars[rest...]
            guard tail.allSatisfy({ "0123456789.:+-Zz ".utf8.contains($0) }) else { return nil }
            if tail.first == UInt8(ascii: ".") {
                tail = tail.dropFirst().drop { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            }
            while tail.first == space { tail = tail.dropFirst() }
            while tail.last == space { tail = tail.dropLast() }
            zone = Self.zone(tail)
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if let zone { (offset, isUniversal) = (zone.offset, zone.universal) }
    }

    /// The offset in minutes of `Z`, `+02:00`, `-0400` or `+02` (at most 18 hours either way),
    /// from its ASCII bytes. (Bytes, not Characters: most dates a camera or Lightroom writes
    /// have a zone, and every photo's is read on every scan.)
    static func zone(_ bytes: ArraySlice<UInt8>) -> (offset: Int, universal: Bool)? {
        if bytes.count == 1, bytes.first == UInt8(ascii: "Z") || bytes.first == UInt8(ascii: "z") { return (0, true) }
        let colon = UInt8(ascii: ":")
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let rest = bytes.dropFirst()
        // The digits as one number, and how many there are.
        var (value, digits, colons) = (0, 0, 0)
        for byte in rest {
            if byte == colon {
                colons += 1
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 4 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                return nil
            }
        }
        guard digits == 2 || digits == 4, colons <= (digits == 4 ? 1 : 0),
              bytes.count < 4 || bytes.count == 5 || bytes[bytes.startIndex + 3] == colon else { return nil }
        let hours = digits == 4 ? value / 100 : value
        let minutes = digits == 4 ? value % 100 : 0
        guard hours <= 18, minutes < 60 else { return nil }
        return ((hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1), false)
    }

    /// The same date with the zone `offset` (minutes east of UTC) given to it: a ``isUniversal``
    /// date is moved to that zone's local time; a floating one keeps its wall time.
    public func localized(toOffset offset: Int) -> GalleryDate {
        var result = self
        if isUniversal, precision == .time {
            let seconds = wallSeconds + offset * 60
            result.setWall(seconds)
        }
        result.offset = offset
        result.isUniversal = false
        result.assumedOffset = nil
        return result
    }

    /// The same wall time with the zone given by `other`'s (used when two sources give the same
    /// time and only one of them its zone).
    public func withZone(of other: GalleryDate) -> GalleryDate {
        var result = self
        (result.offset, result.isUniversal, result.assumedOffset) = (other.offset, other.isUniversal, other.assumedOffset)
        return result
    }

    /// Whether the fields down to the coarser of both precisions and the time agree.
    public func sameWallTime(as other: GalleryDate) -> Bool {
        wallKey == other.wallKey
    }

    /// `2024-05-31`, `2024-05-31 14:30:15`, `1987-07` or `1987`: the wall time, without a zone.
    public var description: String {
        switch precision {
        case .year: return pad(year, 4)
        case .month: return "\(pad(year, 4))-\(pad(month, 2))"
        case .day: return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        case .time: return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        }
    }

    /// `2024-05-31`, `2024-05-31T14:30:15`, `2024-05-31T14:30:15-04:00`, `2024-05-31T18:30:15Z`,
    /// `1987-07` or `1987` (for HTML's `<time datetime>`, which takes every one of these forms).
    public var iso8601: String {
        let text = description.replacingFirstSpace(with: "T")
        guard precision == .time, let offset else { return text }
        if isUniversal { return text + "Z" }
        let magnitude = abs(offset)
        return text + (offset < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
    }

    /// The date as UTC in RFC 3339 (`2024-05-31T18:30:15Z`): its instant when it has a zone;
    /// a floating date is taken in the zone assumed for it (``assumingZone(_:)``), else as UTC
    /// (there is nothing better); the start of its period when it has no time.
    public var utcTimestamp: String {
        var utc = self
        utc.setWall(wallSeconds - (precision == .time ? (offset ?? assumedOffset ?? 0) * 60 : 0))
        return "\(pad(utc.year, 4))-\(pad(utc.month, 2))-\(pad(utc.day, 2))T\(pad(utc.hour, 2)):\(pad(utc.minute, 2)):\(pad(utc.second, 2))Z"
    }

    /// The same floating date, ordered as though it were in the zone `offset` minutes east of
    /// UTC; any other date as it is.
    public func assumingZone(_ offset: Int) -> GalleryDate {
        guard self.offset == nil, precision == .time else { return self }
        var date = self
        date.assumedOffset = offset
        return date
    }

    /// The wall time in seconds, from the same origin as ``instant``, for a date with a time.
    public var wallTime: Int? {
        precision == .time ? wallSeconds : nil
    }

    /// The instant in seconds (from an arbitrary origin), for a date with a time and a zone.
    public var instant: Int? {
        guard let offset, precision == .time else { return nil }
        return wallSeconds - offset * 60
    }

    /// Seconds of the wall time since 0000-03-01 00:00 (proleptic Gregorian).
    private var wallSeconds: Int {
        Self.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The wall time, and the precision (coarser first), in one number that orders like them.
    private var wallKey: Int { wallSeconds * 4 + precision.rawValue }

    /// What dates are ordered by first, in ``wallKey``'s form: the instant of a date with a time
    /// and a zone (its own, else the one assumed), else the wall time (a floating date without
    /// an assumed zone taken as UTC; a date without a time at the start of its period).
    private var orderKey: Int {
        guard precision == .time, let zone = offset ?? assumedOffset else { return wallKey }
        return (wallSeconds - zone * 60) * 4 + precision.rawValue
    }

    /// After ``orderKey`` and the wall time, what tells dates apart: no zone first, then by
    /// zone, UTC-alone after a local zone, then by the zone assumed.
    private var zoneKey: (Int, Int, Int, Int) {
        (offset == nil ? 0 : 1, offset ?? 0, isUniversal ? 1 : 0, assumedOffset ?? Int.min)
    }

    private mutating func setWall(_ seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (y, m, d) = Self.civil(fromDays: days)
        guard (1...9999).contains(y) else { return }
        let rest = seconds - days * 86_400
        (year, month, day) = (y, m, d)
        (hour, minute, second) = (rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// By ``orderKey`` (the instant), then by wall time, then by zone: one key after another,
    /// so that the order is total (a sort's result does not depend on the order it was given).
    public static func < (a: GalleryDate, b: GalleryDate) -> Bool {
        if a.orderKey != b.orderKey { return a.orderKey < b.orderKey }
        if a.wallKey != b.wallKey { return a.wallKey < b.wallKey }
        return a.zoneKey < b.zoneKey
    }

    public static func == (a: GalleryDate, b: GalleryDate) -> Bool {
        a.wallKey == b.wallKey && a.offset == b.offset && a.isUniversal == b.isUniversal && a.assumedOffset == b.assumedOffset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(wallKey)
        hasher.combine(offset)
        hasher.combine(isUniversal)
        hasher.combine(assumedOffset)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 0000-03-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra
    }

    /// The inverse of ``daysFromCivil(year:month:day:)``.
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
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
