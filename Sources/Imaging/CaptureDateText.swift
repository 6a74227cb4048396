/// Whether a capture date, as a file or sidecar writes it, can be read, so that an unreadable
/// value in one source (`photoshop:DateCreated="unknown"`, EXIF's blank `    :  :     :  :  `)
/// leaves the date to the next source instead of winning. (The date itself is read later, by
/// `GalleryDate`, which takes the same forms: a year, a year-month, a day, a day and time.)
public enum CaptureDateText {
    /// Whether `text` is `1987`, `1987-07`, `2024-05-31`, `2024:05:31 14:30…`, or with `T`
    /// before the time, in range (EXIF's zeroed day or month makes a coarser date).
    public static func isDate(_ text: String) -> Bool {
        let chars = Array(text.trimmingBlanks.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, chars[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return chars[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), year > 0 else { return false }
        if chars.count == 4 { return true }
        if chars.count == 7 { return chars[4] == UInt8(ascii: "-") && (number(5..<7).map { (1...12).contains($0) } ?? false) }
        guard chars.count >= 10, let month = number(5..<7), let day = number(8..<10),
              (chars[4] == UInt8(ascii: "-") && chars[7] == UInt8(ascii: "-")) || (chars[4] == UInt8(ascii: ":") && chars[7] == UInt8(ascii: ":"))
        else { return false }
        if day == 0 { return (0...12).contains(month) }
        guard (1...12).contains(month), day <= 31 else { return false }
        if chars.count == 10 { return true }
        guard [UInt8(ascii: " "), UInt8(ascii: "T"), UInt8(ascii: "t")].contains(chars[10]), let hour = number(11..<13),
              chars.count >= 16, chars[13] == UInt8(ascii: ":"), let minute = number(14..<16) else { return false }
        return hour < 24 && minute < 60
    }

    /// The first of `candidates` that is a date (``isDate(_:)``).
    public static func firstDate(_ candidates: String?...) -> String? {
        candidates.lazy.compactMap { $0 }.first(where: isDate)
    }

    /// An EXIF date (`2024:07:31 20:30:00`) with its EXIF offset (`-04:00`, from OffsetTimeOriginal
    /// or OffsetTime) appended when the offset is well-formed: `2024:07:31 20:30:00-04:00`.
    static func exifDate(_ date: String?, offset: String?) -> String? {
        guard let date else { return nil }
        guard let offset = offset?.trimmingBlanks, offset.utf8.count == 6, date.utf8.count == 19,
              let sign = offset.utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return date }
        let rest = Array(offset.utf8.dropFirst())
        guard rest[2] == UInt8(ascii: ":"), [0, 1, 3, 4].allSatisfy({ (0x30...0x39).contains(rest[$0]) }) else { return date }
        return date + offset
    }
}

extension String {
    fileprivate var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\0" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
