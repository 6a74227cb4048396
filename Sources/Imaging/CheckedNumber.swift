/// A number read from a file that is not what its field can be: not a number, not finite, or
/// outside the field's range. The description names the field and the value, in words a user
/// understands ("its xmp:Rating (1e19) is not a number in -1…5"); the caller adds the file.
public struct FieldValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field as the file names it (`xmp:Rating`, `EXIF Rating`, `rotate`).
    public var field: String
    /// The value as found (shortened).
    public var value: String
    /// The range the field allows, as shown.
    public var range: String

    public var description: String {
        "its \(field) (\(value)) is not a number in \(range)"
    }
}

/// The one checked conversion every parser uses for a number read from a file (XMP, EXIF, IPTC,
/// ISO media, TIFF, ffprobe's answers): a value is used only when it is finite and inside the
/// field's range, so no file can make a conversion trap (`Int(1e19)` stops the program) or
/// carry a nonsense value into a page. Out of range is an error naming the field, which the
/// parser turns into a warning; the photo is published without that field.
public enum CheckedNumber {
    /// `text` (a decimal number, as XMP and ffprobe write them) rounded to the nearest integer
    /// in `range`.
    public static func integer(_ text: String, field: String, in range: ClosedRange<Int>) -> Result<Int, FieldValueProblem> {
        let trimmed = String(text.trimmingBlanks)
        guard let value = Double(trimmed) else { return .failure(problem(field, trimmed, range)) }
        return integer(value, field: field, in: range, shown: trimmed)
    }

    /// `value` rounded to the nearest integer in `range`.
    public static func integer(
        _ value: Double, field: String, in range: ClosedRange<Int>, shown: String? = nil
    ) -> Result<Int, FieldValueProblem> {
        // Compared as doubles before any conversion: `Int(value)` traps outside Int's range.
        let rounded = value.rounded()
        guard rounded.isFinite, rounded >= Double(range.lowerBound), rounded <= Double(range.upperBound) else {
            return .failure(problem(field, shown ?? "\(value)", range))
        }
        return .success(Int(rounded))
    }

    /// An integer of any width (EXIF SHORT and LONG, box fields) in `range`.
    public static func integer<Value: BinaryInteger>(
        _ value: Value, field: String, in range: ClosedRange<Int>
    ) -> Result<Int, FieldValueProblem> {
        guard let exact = Int(exactly: value), range.contains(exact) else {
            return .failure(problem(field, "\(value)", range))
        }
        return .success(exact)
    }

    /// A finite `value` in `range`.
    public static func double(_ value: Double, field: String, in range: ClosedRange<Double>) -> Result<Double, FieldValueProblem> {
        guard value.isFinite, range.contains(value) else {
            return .failure(FieldValueProblem(field: field, value: "\(value)", range: "\(range.lowerBound)…\(range.upperBound)"))
        }
        return .success(value)
    }

    private static func problem(_ field: String, _ value: String, _ range: ClosedRange<Int>) -> FieldValueProblem {
        let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
        return FieldValueProblem(field: field, value: shown, range: "\(range.lowerBound)…\(range.upperBound)")
    }
}

extension String {
    /// The text without ASCII blanks around it.
    fileprivate var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
