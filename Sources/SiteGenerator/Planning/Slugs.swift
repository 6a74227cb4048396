import Foundation

/// Turns names into file-system and URL friendly slugs, unique within one folder.
///
/// A slug keeps letters and digits of any script (lower-cased, Unicode NFC), turns every other
/// character into `-`, and never differs from another slug of the same folder only by case, so
/// the site survives case-insensitive file systems (`IMG_1.JPG` and `img_1.jpg` become `img_1`
/// and `img_1-2`).
struct SlugAllocator {
    private var taken: Set<String>

    /// `reserved` names are never handed out (e.g. `thumbs`, `assets`, `index`); room is made
    /// for `capacity` slugs more.
    init(reserved: Set<String> = [], capacity: Int = 0) {
        taken = reserved
        taken.reserveCapacity(reserved.count + capacity)
    }

    /// A slug for `name` not handed out before; `fallback` is used when nothing of the name is left.
    mutating func allocate(for name: String, fallback: String) -> String {
        allocate(slug: Self.slug(name), fallback: fallback)
    }

    /// ``allocate(for:fallback:)`` of a name whose ``slug(_:)`` is `slug` (worked out beforehand).
    mutating func allocate(slug: String, fallback: String) -> String {
        var base = slug
        if base.isEmpty { base = fallback }
        var candidate = base
        var counter = 2
        // (One lookup for a free slug, most photos' case: a plan allocates one per photo.)
        while !taken.insert(candidate).inserted {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        return candidate
    }

    /// The most UTF-8 bytes a slug takes: with a counter, a width and an extension
    /// (`-12-1600.webp`) a file name stays far below the 255 bytes file systems allow.
    static let maximumBytes = 160

    /// The slug of `name`, possibly empty.
    static func slug(_ name: String) -> String {
        name.utf8.allSatisfy({ $0 < 0x80 }) ? asciiSlug(name) : unicodeSlug(name)
    }

    /// ``slug(_:)`` of any name, scalar by scalar.
    static func unicodeSlug(_ name: String) -> String {
        var output = ""
        var pendingDash = false
        for scalar in name.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            let keep = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar == "_" || scalar.properties.generalCategory == .decimalNumber
            let isEmoji = scalar.properties.isEmojiPresentation || (scalar.properties.isEmoji && scalar.value > 0xFF)
            if keep && !isEmoji {
                let dash = pendingDash && !output.isEmpty
                if output.utf8.count + (dash ? 1 : 0) + String(scalar).utf8.count > maximumBytes { break }
                if dash { output.append("-") }
                pendingDash = false
                output.unicodeScalars.append(scalar)
                if output.unicodeScalars.count >= 80 { break }
            } else {
                pendingDash = true
            }
        }
        return output
    }

    /// ``slug(_:)`` of a name of ASCII characters (most camera file names), byte by byte: the
    /// same result without Unicode normalisation and property lookups, which took a large
    /// library's rebuild half a second.
    static func asciiSlug(_ name: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(name.utf8.count)
        var pendingDash = false
        for byte in name.utf8 {
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            let keep = (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
                || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9")) || lower == UInt8(ascii: "_")
            if keep {
                let dash = pendingDash && !output.isEmpty
                if output.count + (dash ? 1 : 0) + 1 > maximumBytes { break }
                if dash { output.append(UInt8(ascii: "-")) }
                pendingDash = false
                output.append(lower)
                if output.count >= 80 { break }
            } else {
                pendingDash = true
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Percent-encoding of URL paths: every byte outside the unreserved set (RFC 3986) is encoded,
/// path segment by path segment, so names with spaces, `#`, `?`, `%` or any script work.
enum URLPath {
    /// Whether `byte` stands for itself in a URL path segment (RFC 3986 "unreserved").
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Encodes one path segment.
    static func encode(segment: String) -> String {
        // Most segments (slugs) need no escape at all.
        if segment.utf8.allSatisfy(isUnreserved) { return segment }
        var output = ""
        for byte in segment.utf8 {
            if isUnreserved(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }

    /// Encodes a relative path made of `/`-separated segments (`..` and empty segments kept).
    static func encode(path: String) -> String {
        // A path of unreserved bytes and slashes is its own encoding.
        if path.utf8.allSatisfy({ $0 == UInt8(ascii: "/") || isUnreserved($0) }) { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == ".." || $0 == "." ? String($0) : encode(segment: String($0)) }
            .joined(separator: "/")
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
