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
    /// `photoshop:DateCreated`, else `exif:DateTimeOriginal` (ISO 8601, as written, with its
    /// zone; a year or year-month too): the first that is a date (``CaptureDateText``).
    public var dateTaken: String?
    /// `dc:creator`, its entries joined by ", ".
    public var creator: String?
    /// `dc:rights` (the copyright notice), its `x-default` entry (else the first).
    public var rights: String?
    /// The names of the named face regions (MWG `mwg-rs:RegionInfo`, Microsoft `MP:RegionInfo`),
    /// each once, in the order found; their rectangles are never kept.
    public var people: [String]?
    /// The place the photographer wrote: `Iptc4xmpCore:Location` (the sublocation),
    /// `photoshop:City`, `photoshop:State`, `photoshop:Country`.
    public var sublocation: String?
    public var city: String?
    public var state: String?
    public var country: String?
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
        result.rights = rights ?? lower.rights
        result.people = people ?? lower.people
        // The place is one: a packet that names any part of it names all of it.
        let place = hasPlace ? self : lower
        (result.sublocation, result.city, result.state, result.country) = (place.sublocation, place.city, place.state, place.country)
        return result
    }

    /// Whether any part of the place is written.
    public var hasPlace: Bool {
        sublocation != nil || city != nil || state != nil || country != nil
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
        let (collector, parser, parsed) = parse(body)
        if collector.tooDeep { throw .tooDeep(limit: maximumDepth) }
        // On Linux `parse()` can return true after an error (an unclosed or mismatched tag):
        // the errors reported to the delegate decide.
        if let line = collector.errorLine { throw .malformed(line: max(1, line)) }
        guard parsed, parser.parserError == nil else { throw .malformed(line: max(1, parser.lineNumber)) }
        return collector.metadata
    }

    /// `body` parsed into a collector, after the byte checks of ``read(_:)``.
    static func parse(_ body: ArraySlice<UInt8>) -> (XMPCollector, XMLParser, parsed: Bool) {
        let collector = XMPCollector()
        let parser = XMLParser(data: Data(withDataInProcessingInstructions(body)))
        parser.shouldProcessNamespaces = false  // prefixes are resolved by the collector, attributes too
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        let parsed = parser.parse()
        return (collector, parser, parsed)
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
    /// The people of named face regions: each region of type `Face` (or of no type, as
    /// Microsoft's are) with a name, each name once (ignoring case), in order; nil when none.
    static func people(_ regions: [(name: String?, type: String?)]) -> [String]? {
        var seen: Set<String> = []
        var names: [String] = []
        for region in regions {
            guard let name = region.name, region.type.map({ $0.lowercased() == "face" }) ?? true,
                seen.insert(name.lowercased()).inserted else { continue }
            names.append(name)
        }
        return names.isEmpty ? nil : names
    }

    /// Photo tools' own keyword trees (docs/input.md lists them), never the user's: darktable's
    /// `darktable|changed`, `darktable|format|jpg`…, digiKam's `_Digikam_Internal_Tags_|…` and its
    /// face-recognition placeholders `People|Unknown`, `People|Unconfirmed`, `People|Ignored`.
    /// Each is a path of lower-cased levels; a keyword at or under one is dropped.
    static let internalTrees: [[String]] = [
        ["darktable"], ["_digikam_internal_tags_"],
        ["people", "unknown"], ["people", "unconfirmed"], ["people", "ignored"],
    ]

    /// Whether the levels of a hierarchical keyword are at or under one of ``internalTrees``.
    static func isInternal(_ levels: [String]) -> Bool {
        internalTrees.contains { tree in
            levels.count >= tree.count && zip(levels, tree).allSatisfy { $0.lowercased() == $1 }
        }
    }

    static func keywords(subject: [String], hierarchical: [String]) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        var ancestors: Set<String> = []
        // The last levels of internal keywords: a tool that also lists them flat (`changed`,
        // `exported`) does not make them the user's, unless a keyword of the user's ends so.
        var internalLeaves: Set<String> = []
        var userLeaves: Set<String> = []
        func add(_ keyword: String) {
            let trimmed = keyword.trimmedXMP
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { return }
            result.append(trimmed)
        }
        for path in hierarchical {
            let levels = path.split(separator: "|").map { String($0).trimmedXMP }.filter { !$0.isEmpty }
            guard let last = levels.last else { continue }
            if isInternal(levels) {
                internalLeaves.insert(last.lowercased())
                continue
            }
            userLeaves.insert(last.lowercased())
            for level in levels.dropLast() { ancestors.insert(level.lowercased()) }
            add(last)
        }
        for keyword in subject {
            let key = keyword.trimmedXMP.lowercased()
            if ancestors.contains(key) || (internalLeaves.contains(key) && !userLeaves.contains(key)) { continue }
            // A flat keyword written as a path (`darktable|format|jpg` in `dc:subject`).
            if keyword.contains("|") {
                let levels = keyword.split(separator: "|").map { String($0).trimmedXMP }.filter { !$0.isEmpty }
                if isInternal(levels) { continue }
            }
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
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    /// Metadata Working Group regions (digiKam, Lightroom, Picasa).
    static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
    /// Microsoft's people tags (Windows Photo Gallery; digiKam writes them too).
    static let microsoftRegionInfo = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    static let microsoftRegion = "http://ns.microsoft.com/photo/1.2/t/Region#"
}

/// The parser's delegate: resolves prefixes through the `xmlns` declarations in scope (so a
/// packet that binds `dc` to another URI is read right), and collects the values of the
/// properties read, whether written as elements (`<dc:title><rdf:Alt><rdf:li …>`) or as
/// attributes of `rdf:Description` (`xmp:Rating="4"`).
final class XMPCollector: NSObject, XMLParserDelegate {
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
    /// How many errors the parser reported (the parse ends at the first).
    private(set) var errorsReported = 0

    private var values: [String: [(language: String?, text: String)]] = [:]

    private static let read: Set<String> = [
        XMPNamespace.dc + "title", XMPNamespace.dc + "description", XMPNamespace.dc + "subject", XMPNamespace.dc + "creator",
        XMPNamespace.lightroom + "hierarchicalSubject", XMPNamespace.xmp + "Rating",
        XMPNamespace.photoshop + "DateCreated", XMPNamespace.exif + "DateTimeOriginal",
        XMPNamespace.dc + "rights", XMPNamespace.iptcCore + "Location", XMPNamespace.photoshop + "City",
        XMPNamespace.photoshop + "State", XMPNamespace.photoshop + "Country",
    ]

    /// A face region being read: its name and type (only a region's name is kept, never its area).
    private struct Region {
        var depth: Int
        var name: String?
        var type: String?
        /// The name or type element whose text is being read, and the text.
        var field: String?
        var text = ""
    }
    /// The depth of the open region list (`mwg-rs:RegionList`, `MPRI:Regions`), if any.
    private var regionListDepth: Int?
    private var region: Region?
    /// The regions read, as (name, type).
    private var regions: [(name: String?, type: String?)] = []
    private static let regionName = XMPNamespace.mwgRegions + "Name"
    private static let regionType = XMPNamespace.mwgRegions + "Type"
    private static let personDisplayName = XMPNamespace.microsoftRegion + "PersonDisplayName"

    /// Takes a region's field (whether written as an attribute or an element's text).
    private func takeRegionField(_ name: String, _ value: String) {
        let text = value.trimmedXMP
        guard !text.isEmpty else { return }
        if name == Self.regionName || name == Self.personDisplayName {
            if region?.name == nil { region?.name = text }
        } else if name == Self.regionType {
            region?.type = text
        }
    }

    /// Follows the face regions: each item of a region list (a `rdf:li` two levels under it,
    /// below its `rdf:Bag`) is a region, whose name and type may sit anywhere inside it.
    private func startRegionElement(_ name: String, attributes: [String: String]) {
        guard let listDepth = regionListDepth else {
            if name == XMPNamespace.mwgRegions + "RegionList" || name == XMPNamespace.microsoftRegionInfo + "Regions" {
                regionListDepth = depth
            }
            return
        }
        if region == nil, depth == listDepth + 2, name == XMPNamespace.rdf + "li" { region = Region(depth: depth) }
        guard region != nil else { return }
        for (key, value) in attributes where !key.hasPrefix("xmlns") { takeRegionField(resolve(key), value) }
        if name == Self.regionName || name == Self.regionType || name == Self.personDisplayName {
            region?.field = name
            region?.text = ""
        }
    }

    private func endRegionElement(_ name: String) {
        if var current = region {
            if let field = current.field, field == name {
                region?.field = nil
                takeRegionField(field, current.text)
                current = region!
            }
            if current.depth == depth {
                regions.append((current.name, current.type))
                region = nil
            }
        }
        if regionListDepth == depth { regionListDepth = nil }
    }

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
        startRegionElement(name, attributes: attributes)
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

    /// The first error ends the parse: the packet is refused anyway, and Foundation's parser on
    /// Linux leaks about 90 bytes for every further error it reports (libxml2 recovers and
    /// reports hundreds in a damaged packet: 23 KB lost per packet, measured).
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        errorsReported += 1
        guard errorLine == nil else { return }
        errorLine = parser.lineNumber
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if item != nil { item?.text += string } else if property != nil { property?.text += string }
        if region?.field != nil { region?.text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            depth -= 1
            scopes.removeLast()
        }
        if descriptions.last == depth { descriptions.removeLast() }
        if region != nil || regionListDepth != nil { endRegionElement(resolve(elementName)) }
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
        // The first readable date (a partial one included): an unreadable value leaves the date
        // to the next source, with a word about it.
        let dates = [("photoshop:DateCreated", texts(XMPNamespace.photoshop + "DateCreated").first),
                     ("exif:DateTimeOriginal", texts(XMPNamespace.exif + "DateTimeOriginal").first)]
        result.dateTaken = CaptureDateText.firstDate(dates[0].1, dates[1].1)
        for (name, value) in dates {
            guard let value, !CaptureDateText.isDate(value) else { continue }
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            result.fieldProblems = (result.fieldProblems ?? []) + ["its \(name) (\"\(shown)\") is not a date"]
        }
        let creators = texts(XMPNamespace.dc + "creator")
        result.creator = creators.isEmpty ? nil : creators.joined(separator: ", ")
        result.rights = alternative(XMPNamespace.dc + "rights")
        result.sublocation = texts(XMPNamespace.iptcCore + "Location").first
        result.city = texts(XMPNamespace.photoshop + "City").first
        result.state = texts(XMPNamespace.photoshop + "State").first
        result.country = texts(XMPNamespace.photoshop + "Country").first
        result.people = XMPReader.people(regions)
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
