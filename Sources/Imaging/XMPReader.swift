import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What an XMP packet (a sidecar `IMG_1.xmp`, or the packet embedded in the photo) says about a
/// photo: the fields Lightroom, darktable, digiKam, Capture One and Apple Photos write.
public struct XMPMetadata: Sendable, Hashable, Codable {
    /// `dc:title`, its `x-default` entry (else the first).
    public var title: String?
    /// `dc:description`, its `x-default` entry (else the first).
    public var description: String?
    /// The keywords: the last level of each `lr:hierarchicalSubject` (`Places|France|Paris` is
    /// `Paris`), and each `dc:subject` that is not a higher level of one of them; in the order
    /// found, each once (ignoring case).
    public var keywords: [String]?
    /// `xmp:Rating`: -1 (rejected) to 5 stars.
    public var rating: Int?
    /// `photoshop:DateCreated`, else `exif:DateTimeOriginal` (ISO 8601, as written).
    public var dateTaken: String?
    /// `dc:creator`, its entries joined by ", ".
    public var creator: String?
    /// The fields whose values were out of range and left out, each as a user reads it
    /// ("its xmp:Rating (1e19) is not a number in -1…5"); nil when there were none.
    public var fieldProblems: [String]?

    /// Creates metadata.
    public init(title: String? = nil, description: String? = nil, keywords: [String]? = nil, rating: Int? = nil,
                dateTaken: String? = nil, creator: String? = nil) {
        self.title = title
        self.description = description
        self.keywords = keywords
        self.rating = rating
        self.dateTaken = dateTaken
        self.creator = creator
    }

    /// Each field of `self`, else of `lower` (a field `self` lacks comes from `lower`).
    public func over(_ lower: XMPMetadata) -> XMPMetadata {
        var result = XMPMetadata(title: title ?? lower.title, description: description ?? lower.description,
                                 keywords: keywords ?? lower.keywords, rating: rating ?? lower.rating,
                                 dateTaken: dateTaken ?? lower.dateTaken, creator: creator ?? lower.creator)
        result.fieldProblems = fieldProblems ?? lower.fieldProblems
        return result
    }
}

/// Why an XMP packet was not read. The description says it in words a user understands.
public enum XMPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The packet (or sidecar) is larger than any real one.
    case tooLarge(limit: Int)
    /// The XML declaration names another encoding than UTF-8 (`UTF-7`, `UTF-16`...), or the
    /// text holds NUL bytes (UTF-16 without a declaration): libxml2 would decode it into
    /// something the byte checks above never saw.
    case declaresEncoding(String)
    /// The bytes are not UTF-8 text.
    case notUTF8
    /// The packet declares a document type or entities (XMP never does; entity expansion is
    /// how an "XML bomb" blows up).
    case declaresEntities
    /// The elements nest deeper than any real packet.
    case tooDeep(limit: Int)
    /// The XML cannot be parsed.
    case malformed(line: Int)
    /// The file cannot be read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "larger than \(limit >> 20) MB, far more than any XMP"
        case .notUTF8: "not UTF-8 text"
        case .declaresEntities: "it declares a document type or entities, which XMP never does"
        case .declaresEncoding(let name): "it declares the text encoding \(name), but XMP is read only as UTF-8"
        case .tooDeep(let limit): "its elements nest more than \(limit) deep"
        case .malformed(let line): "not well-formed XML (line \(line))"
        case .unreadable(let reason): "cannot be read (\(reason))"
        }
    }
}

/// Reads XMP with Foundation's `XMLParser` (libxml2): no DTD, no entities (refused before
/// parsing), no external resources, at most ``maximumSize`` bytes and ``maximumDepth`` levels.
public enum XMPReader {
    /// The largest packet or sidecar read (a real sidecar is a few kilobytes to a few hundred,
    /// with an embedded preview a few megabytes).
    public static let maximumSize = 16 << 20
    /// The deepest nesting of elements accepted (a real packet nests about 8 deep).
    public static let maximumDepth = 64

    /// The XMP sidecar file at `path` (the scan's resolved path): opened without following a
    /// link (a sidecar swapped for a link to an outside file is not read), its size checked on
    /// the open descriptor before anything is read; with `scanned`, checked against the scan's
    /// file and folder as well.
    public static func read(fileAtPath path: String, scanned: ScannedFile? = nil) throws(XMPError) -> XMPMetadata {
        let data: Data
        do throws(SourceFileError) {
            data = try SourceFile.open(path, scanned: scanned).readAll(limit: maximumSize)
        } catch {
            switch error {
            case .tooLarge: throw .tooLarge(limit: maximumSize)
            case .io(let reason): throw .unreadable(reason)
            default: throw .unreadable(error.description)
            }
        }
        return try read([UInt8](data))
    }

    /// The XMP packet `bytes`.
    public static func read(_ bytes: [UInt8]) throws(XMPError) -> XMPMetadata {
        guard bytes.count <= maximumSize else { throw .tooLarge(limit: maximumSize) }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        while body.last == 0 { body = body.dropLast() }  // padding after an embedded packet
        guard String(validating: body, as: UTF8.self) != nil else { throw .notUTF8 }
        // The checks below read the bytes as UTF-8; libxml2 must read them the same way.
        if body.contains(0) { throw .declaresEncoding("UTF-16 (it holds NUL bytes)") }
        if let encoding = declaredEncoding(body), !["utf-8", "utf8"].contains(encoding.lowercased()) {
            throw .declaresEncoding(String(encoding.prefix(40)))
        }
        if containsDeclaration(body) { throw .declaresEntities }
        let collector = XMPCollector()
        let parser = XMLParser(data: Data(withDataInProcessingInstructions(body)))
        parser.shouldProcessNamespaces = false  // prefixes are resolved by the collector, attributes too
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        let parsed = parser.parse()
        if collector.tooDeep { throw .tooDeep(limit: maximumDepth) }
        // On Linux `parse()` can return true after an error (an unclosed or mismatched tag):
        // the errors reported to the delegate decide.
        if let line = collector.errorLine { throw .malformed(line: max(1, line)) }
        guard parsed, parser.parserError == nil else { throw .malformed(line: max(1, parser.lineNumber)) }
        return collector.metadata
    }

    /// The `encoding` of the XML declaration (`<?xml version="1.0" encoding="UTF-7"?>`) the
    /// bytes start with (after blanks), if any.
    static func declaredEncoding(_ bytes: ArraySlice<UInt8>) -> String? {
        let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? bytes.endIndex
        let opening = Array("<?xml".utf8)
        guard bytes[start...].starts(with: opening) else { return nil }
        let afterOpening = start + opening.count
        // The declaration ends at the first `?>`.
        var end = afterOpening
        while end + 1 < bytes.endIndex, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
        let declaration = String(decoding: bytes[afterOpening..<min(end, bytes.endIndex)], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return String(rest.prefix { !$0.isWhitespace }) }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The bytes with a blank added to every processing instruction that has a target but no
    /// data (`<?name?>` becomes `<?name ?>`). libxml2 reports such an instruction's data as a
    /// null pointer, and Foundation's `XMLParser` on Linux reads it with `strlen`, which crashes
    /// the process; with the blank the data is an empty string. XMP's own `<?xpacket …?>`
    /// always has data, so real packets are passed on unchanged.
    static func withDataInProcessingInstructions(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        var result: [UInt8] = []
        var copied = bytes.startIndex
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "?") else { continue }
            var end = index + 1
            while end < bytes.endIndex, bytes[end] != UInt8(ascii: "?"), !blanks.contains(bytes[end]) { end += 1 }
            guard end + 1 < bytes.endIndex, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") else { continue }
            result.append(contentsOf: bytes[copied..<end])
            result.append(0x20)
            copied = end
            index = end
        }
        guard copied != bytes.startIndex else { return bytes }
        result.append(contentsOf: bytes[copied...])
        return result[...]
    }

    /// Whether the bytes hold `<!DOCTYPE` or `<!ENTITY` (in any case).
    private static func containsDeclaration(_ bytes: ArraySlice<UInt8>) -> Bool {
        let patterns = ["<!doctype", "<!entity"].map { Array($0.utf8) }
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            for pattern in patterns where bytes.count - (open - bytes.startIndex) >= pattern.count {
                if zip(bytes[open...], pattern).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 }) { return true }
            }
            index = open + 1
        }
        return false
    }

    /// Keywords from flat `dc:subject` and hierarchical `lr:hierarchicalSubject` lists: each
    /// hierarchy's last level, then the flat ones that are not a higher level of a hierarchy
    /// (Lightroom also lists `Places` and `France` for `Places|France|Paris`); each once.
    static func keywords(subject: [String], hierarchical: [String]) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        var ancestors: Set<String> = []
        func add(_ keyword: String) {
            let trimmed = keyword.trimmedXMP
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { return }
            result.append(trimmed)
        }
        for path in hierarchical {
            let levels = path.split(separator: "|").map { String($0).trimmedXMP }.filter { !$0.isEmpty }
            guard let last = levels.last else { continue }
            for level in levels.dropLast() { ancestors.insert(level.lowercased()) }
            add(last)
        }
        for keyword in subject where !ancestors.contains(keyword.trimmedXMP.lowercased()) {
            add(keyword)
        }
        return result
    }
}

/// The namespaces of the properties read.
private enum XMPNamespace {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
}

/// The parser's delegate: resolves prefixes through the `xmlns` declarations in scope (so a
/// packet that binds `dc` to another URI is read right), and collects the values of the
/// properties read, whether written as elements (`<dc:title><rdf:Alt><rdf:li …>`) or as
/// attributes of `rdf:Description` (`xmp:Rating="4"`).
private final class XMPCollector: NSObject, XMLParserDelegate {
    private struct Property {
        var name: String
        var depth: Int
        var items: [(language: String?, text: String)] = []
        var text = ""
        var sawItem = false
    }

    private var scopes: [[String: String]] = []
    private var depth = 0
    /// Depths of the open `rdf:Description` elements.
    private var descriptions: [Int] = []
    private var property: Property?
    private var item: (language: String?, text: String)?
    private(set) var tooDeep = false
    /// The line of the first error the parser reported.
    private(set) var errorLine: Int?

    private var values: [String: [(language: String?, text: String)]] = [:]

    private static let read: Set<String> = [
        XMPNamespace.dc + "title", XMPNamespace.dc + "description", XMPNamespace.dc + "subject", XMPNamespace.dc + "creator",
        XMPNamespace.lightroom + "hierarchicalSubject", XMPNamespace.xmp + "Rating",
        XMPNamespace.photoshop + "DateCreated", XMPNamespace.exif + "DateTimeOriginal",
    ]

    private func resolve(_ qualifiedName: String) -> String {
        var prefix = ""
        var local = Substring(qualifiedName)
        if let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":")) {
            prefix = String(qualifiedName[..<colon])
            local = qualifiedName[qualifiedName.index(after: colon)...]
        }
        for scope in scopes.reversed() where !scope.isEmpty {
            if let uri = scope[prefix] { return uri + local }
        }
        return String(local)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        depth += 1
        if depth > XMPReader.maximumDepth {
            tooDeep = true
            parser.abortParsing()
            return
        }
        var scope: [String: String] = [:]
        for (key, value) in attributes {
            if key == "xmlns" { scope[""] = value } else if key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
        }
        scopes.append(scope)
        let name = resolve(elementName)
        if name == XMPNamespace.rdf + "Description" {
            descriptions.append(depth)
            for (key, value) in attributes where !key.hasPrefix("xmlns") {
                let attribute = resolve(key)
                if Self.read.contains(attribute) { values[attribute, default: []].append((nil, value)) }
            }
            return
        }
        if property == nil, let top = descriptions.last, depth == top + 1, Self.read.contains(name) {
            property = Property(name: name, depth: depth)
        } else if property != nil, name == XMPNamespace.rdf + "li" {
            item = (attributes["xml:lang"], "")
            property?.sawItem = true
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if errorLine == nil { errorLine = parser.lineNumber }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if item != nil { item?.text += string } else if property != nil { property?.text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            depth -= 1
            scopes.removeLast()
        }
        if descriptions.last == depth { descriptions.removeLast() }
        guard var current = property else { return }
        if let finished = item, resolve(elementName) == XMPNamespace.rdf + "li" {
            current.items.append(finished)
            item = nil
            property = current
        }
        if current.depth == depth {
            let found = current.sawItem ? current.items : [(nil, current.text)]
            values[current.name, default: []] += found
            property = nil
        }
    }

    /// The collected values as metadata.
    var metadata: XMPMetadata {
        func texts(_ name: String) -> [String] {
            (values[name] ?? []).map { $0.text.trimmedXMP }.filter { !$0.isEmpty }
        }
        /// The `x-default` alternative, else the first.
        func alternative(_ name: String) -> String? {
            let entries = (values[name] ?? []).filter { !$0.text.trimmedXMP.isEmpty }
            let chosen = entries.first { $0.language?.lowercased() == "x-default" } ?? entries.first
            return chosen?.text.trimmedXMP
        }
        var result = XMPMetadata()
        result.title = alternative(XMPNamespace.dc + "title")
        result.description = alternative(XMPNamespace.dc + "description")
        let subject = texts(XMPNamespace.dc + "subject")
        let hierarchical = texts(XMPNamespace.lightroom + "hierarchicalSubject")
        if !subject.isEmpty || !hierarchical.isEmpty {
            result.keywords = XMPReader.keywords(subject: subject, hierarchical: hierarchical)
        }
        if let text = texts(XMPNamespace.xmp + "Rating").first {
            switch CheckedNumber.integer(text, field: "xmp:Rating", in: -1...5) {
            case .success(let rating): result.rating = rating
            case .failure(let problem): result.fieldProblems = [problem.description]
            }
        }
        result.dateTaken = texts(XMPNamespace.photoshop + "DateCreated").first ?? texts(XMPNamespace.exif + "DateTimeOriginal").first
        let creators = texts(XMPNamespace.dc + "creator")
        result.creator = creators.isEmpty ? nil : creators.joined(separator: ", ")
        return result
    }
}

extension String {
    /// The text without white space around it (ASCII blanks checked first: Foundation's
    /// `trimmingCharacters` was most of the cost of reading a sidecar).
    fileprivate var trimmedXMP: String {
        func blank(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" : scalar.properties.isWhitespace
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !blank($0) })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}
