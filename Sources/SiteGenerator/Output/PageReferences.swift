/// The URLs a page or a style sheet of the site refers to, found in its bytes: what
/// ``RecoveredFiles`` follows to find the tool's files without a catalog. (Swift's `Regex` took
/// about a millisecond a page, most of it parsing the pattern again on each call: over two
/// minutes for a site of 100,000 photos.)
///
/// Each function finds what a regular expression would, from left to right, each match after
/// the last one's end; the pattern is in its doc comment.
enum PageReferences {
    /// The values of `href`, `src`, `poster` and `data-…` attributes, the candidates of each
    /// `srcset`, and the `url(…)`s of inline styles, in that order.
    static func urls(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes in attributeValues(bytes) + srcsetCandidates(bytes) + styleURLs(bytes) }
    }

    /// The `url(…)`s of a style sheet.
    static func styleURLs(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { styleURLs($0) }
    }

    /// The page's own address, `<link rel="canonical" href="…">`.
    static func canonical(in text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            let prefix = Array(#"<link rel="canonical" href=""#.utf8)
            var start = 0
            while let found = find(prefix, in: bytes, from: start) {
                let value = found + prefix.count
                if let end = bytes[value...].firstIndex(of: quote), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ">") {
                    return string(bytes[value..<end])
                }
                start = found + 1
            }
            return nil
        }
    }

    /// Where `needle` first begins in `text`, counted in bytes; nil when it is not there.
    static func byteOffset(of needle: String, in text: String) -> Int? {
        var text = text
        let needle = Array(needle.utf8)
        return text.withUTF8 { find(needle, in: $0, from: 0) }
    }

    private static let quote = UInt8(ascii: "\"")

    /// `(?:href|src|poster|data-[a-z-]+)="([^"]*)"`.
    private static func attributeValues(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var values: [String] = []
        var index = 0
        while index < bytes.count {
            // Where the value begins, when an attribute's name and `="` begin at `index`.
            var value: Int?
            for name in names where starts(bytes, at: index, with: name) {
                value = index + name.count
            }
            if value == nil, starts(bytes, at: index, with: dataPrefix) {
                var end = index + dataPrefix.count
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                if end > index + dataPrefix.count, starts(bytes, at: end, with: equalsQuote) { value = end + equalsQuote.count }
            }
            guard let value, let end = bytes[value...].firstIndex(of: quote) else {
                index += 1
                continue
            }
            values.append(string(bytes[value..<end]))
            index = end + 1
        }
        return values
    }

    private static let names = ["href=\"", "src=\"", "poster=\""].map { Array($0.utf8) }
    private static let dataPrefix = Array("data-".utf8)
    private static let equalsQuote = Array("=\"".utf8)

    /// `[a-z-]`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// `srcset="([^"]*)"`, each candidate's URL (its first word).
    private static func srcsetCandidates(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        let prefix = Array("srcset=\"".utf8)
        var urls: [String] = []
        var start = 0
        while let found = find(prefix, in: bytes, from: start) {
            let value = found + prefix.count
            guard let end = bytes[value...].firstIndex(of: quote) else { break }
            for candidate in bytes[value..<end].split(separator: UInt8(ascii: ",")) {
                if let url = candidate.split(separator: UInt8(ascii: " ")).first { urls.append(string(url)) }
            }
            start = end + 1
        }
        return urls
    }

    /// `url\(\s*['"]?([^'")]+)`.
    private static func styleURLs(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        let prefix = Array("url(".utf8)
        var urls: [String] = []
        var start = 0
        while let found = find(prefix, in: bytes, from: start) {
            var index = found + prefix.count
            let spaces = index
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            let afterSpaces = index
            if index < bytes.count, bytes[index] == quote || bytes[index] == UInt8(ascii: "'") { index += 1 }
            var end = index
            while end < bytes.count, !isURLEnd(bytes[end]) { end += 1 }
            if end > index {
                urls.append(string(bytes[index..<end]))
                start = end
            } else if afterSpaces > spaces {
                // Nothing after the quote: the pattern gives back the last space, and takes it.
                urls.append(string(bytes[(afterSpaces - 1)..<afterSpaces]))
                start = afterSpaces
            } else {
                start = found + 1
            }
        }
        return urls
    }

    /// `['")]`.
    private static func isURLEnd(_ byte: UInt8) -> Bool {
        byte == quote || byte == UInt8(ascii: "'") || byte == UInt8(ascii: ")")
    }

    /// `\s`, in ASCII.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, with prefix: [UInt8]) -> Bool {
        guard index + prefix.count <= bytes.count else { return false }
        for offset in prefix.indices where bytes[index + offset] != prefix[offset] { return false }
        return true
    }

    /// Where `prefix` next begins in `bytes`, from `start`.
    private static func find(_ prefix: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = prefix.first else { return nil }
        var index = start
        while index < bytes.count, let candidate = bytes[index...].firstIndex(of: first) {
            if starts(bytes, at: candidate, with: prefix) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    private static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
