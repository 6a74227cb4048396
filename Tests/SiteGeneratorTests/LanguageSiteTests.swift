import Foundation
import GalleryConfig
import Imaging
import TestSupport
import Testing

@testable import SiteGenerator

/// Sites in other languages: every word the site writes comes from the language's strings.
@Suite("Languages on the site")
struct LanguageSiteTests {
    /// Whether the fixture has a video (ffmpeg makes it): album Pp's counts say so.
    static let hasVideo = Clip.tools != nil

    /// A site with an author, a photo at the root, an album of three photos (two dated, one with
    /// a keyword) grouped by day over two static pages, a sub-album, and originals; and album
    /// Pp: a camera-named photo with a person, places, its creator and copyright (people and
    /// places pages, credits, "Photo 1 of Pp"), a photo by the site's author, and a video.
    func makeSource() throws -> TemporaryFolder {
        let source = try TemporaryFolder()
        try source.photo("r.jpg", width: 300, height: 200)
        try source.photo("Zq/a.jpg", width: 300, height: 200)
        try exiftool(Array(MetadataSiteTests.cameraArguments.prefix(9)), on: source.path + "/Zq/a.jpg")
        try source.write("Zq/a.xmp", xmpSidecar("""
            <photoshop:DateCreated>2024-07-14T18:30:00</photoshop:DateCreated>
            <dc:subject><rdf:Bag><rdf:li>zzkw</rdf:li></rdf:Bag></dc:subject>
            """))
        try source.photo("Zq/b.jpg", width: 200, height: 300)
        try source.write("Zq/b.xmp", xmpSidecar("<photoshop:DateCreated>2024-07-14</photoshop:DateCreated>"))
        try source.photo("Zq/c.jpg", width: 250, height: 250)
        try source.photo("Zq/Qx/q.jpg", width: 300, height: 200)
        try source.photo("Pp/IMG_0001.jpg", width: 300, height: 200)
        try exiftool([PeoplePlacesSiteTests.region.replacingOccurrences(of: "Jürgen Müller", with: "Zara Quill"),
                      "-EXIF:Artist=Jq Vx", "-EXIF:Copyright=© 2024 Jq Vx", "-XMP-photoshop:City=Zurville", "-XMP-photoshop:Country=Qland",
                      "-EXIF:Model=Zq 100", "-EXIF:DateTimeOriginal=2024:07:14 18:30:00"], on: source.path + "/Pp/IMG_0001.jpg")
        try source.photo("Pp/b.jpg", width: 200, height: 300)
        if Self.hasVideo { try Clip.make(source.path + "/Pp/v.mp4", seconds: 1, audio: false) }
        return source
    }

    /// Builds the site in `language`, with search (on by default: the pages' words are what is
    /// checked, and Tests/browser/test_languages.py runs the search box).
    func build(_ source: TemporaryFolder, _ output: TemporaryFolder, language: String, templates: String? = nil,
               events: Events? = nil) async throws -> BuildReport {
        let configuration = try SiteConfiguration.parse("""
            title: Zq
            author: Zq Xv
            group: day
            download_originals: true
            language: \(language)
            """)
        var options = SiteOptions(configuration: configuration, sourceDirectory: source.path, outputDirectory: output.path, title: "Zq", jobs: 2)
        options.tilesPerPage = 2
        options.templatesDirectory = templates
        options.verifyAlbumKeys = true
        return try await SiteBuilder(options: options).build { event in events?.list.withLock { $0.append(event) } }
    }

    /// The default theme's strings file for `tag`.
    static func table(_ tag: String) throws -> StringTable {
        try StringTable.parse(try #require(embeddedThemeFiles["i18n/\(tag).yml"]), file: "\(tag).yml")
    }

    /// The words of every text of a table (its `{name}`s left out), lower case.
    static func words(_ table: StringTable) -> Set<String> {
        var texts: [String] = []
        for entry in table.entries.values {
            switch entry {
            case .text(let text): texts.append(text)
            case .plural(let forms): texts += forms.values
            }
        }
        return Set(texts.flatMap { words(in: $0.replacingOccurrences(of: #"\{[a-z_]+\}"#, with: " ", options: .regularExpression)) })
    }

    static func words(in text: String) -> [String] {
        text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= 2 }
    }

    /// The words people see or hear on a page: its text outside scripts and styles, the
    /// attributes that are read (aria-label, title, alt, content, placeholder), entities decoded,
    /// and the texts the page gives its scripts (viewer.js's and search-box.js's strings).
    static func visibleWords(_ html: String) -> Set<String> {
        var found: [String] = []
        let strings = try! NSRegularExpression(pattern: #"<script type="application/json" id="cascade-(?:search-)?strings">([^<]*)</script>"#)
        for match in strings.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let json = try! JSONSerialization.jsonObject(with: Data(html[Range(match.range(at: 1), in: html)!].utf8)) as! [String: Any]
            for value in json.values {
                if let text = value as? String { found.append(text) }
                if let forms = value as? [String: String] { found += forms.values }
            }
        }
        var text = html.replacingOccurrences(of: #"<(script|style)\b[^>]*>[\s\S]*?</\1>"#, with: " ", options: [.regularExpression])
        let attribute = try! NSRegularExpression(pattern: #"\b(aria-label|title|alt|content|placeholder)="([^"]*)""#)
        for match in attribute.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            found.append(String(text[Range(match.range(at: 2), in: text)!]))
        }
        text = text.replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
        found.append(text)
        return Set(found.flatMap { words(in: $0.replacingOccurrences(of: #"\{[a-z_]+\}"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'")) })
    }

    /// Every page of the site: path and text.
    static func pages(_ output: TemporaryFolder) throws -> [(String, String)] {
        let paths = (FileManager.default.subpaths(atPath: output.path) ?? []).filter { $0.hasSuffix(".html") }.sorted()
        return try paths.map { ($0, try output.read($0)) }
    }

    /// The English words (of en.yml) on the site's pages that `language`'s strings do not use too.
    static func englishWords(_ output: TemporaryFolder, language: String) throws -> [String: Set<String>] {
        // "is": the fixture's lens, "RF24-70mm F2.8 L IS USM", is a name, not the site's words.
        let english = words(try table("en")).subtracting(words(try table(language))).subtracting(["cascade", "is"])
        var result: [String: Set<String>] = [:]
        for (path, html) in try pages(output) {
            let left = visibleWords(html).intersection(english)
            if !left.isEmpty { result[path] = left }
        }
        return result
    }

    @Test("French: no English word the site wrote, French dates, counts and lang on every page")
    func french() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        let report = try await build(source, output, language: "fr")
        #expect(report.photos == (Self.hasVideo ? 8 : 7) && report.skipped.isEmpty)
        let pages = try Self.pages(output)
        #expect(pages.count > 8)
        for (path, html) in pages {
            #expect(html.contains("<html lang=\"fr\">"), "\(path)")
        }
        let english = try Self.englishWords(output, language: "fr")
        #expect(english == [:], "\(english)")

        let album = try output.read("zq/index.html")
        #expect(album.contains("3 photos, 4 avec ses albums"))
        #expect(album.contains(">14 juillet 2024</h2>"), "the day's section header")
        #expect(album.contains("aria-label=\"Pages de cet album\"") && album.contains(">Suivante ›</a>"))
        #expect(album.contains("<script type=\"application/json\" id=\"cascade-strings\">"))
        #expect(album.contains(#""viewer_close":"Fermer""#))
        #expect(try output.read("zq/pages/2.html").contains("Sans date"), "the undated photo's section, on the second page")
        #expect(try output.read("index.html").contains(Self.hasVideo ? "1 photo ; 7 photos, 1 vidéo avec ses albums" : "1 photo, 7 avec ses albums"))
        #expect(try output.read("zq/pages/2.html").contains("<title>Zq (page 2 sur 2) · Zq</title>"))
        let photo = try output.read("zq/a.html")
        #expect(photo.contains(">14 juillet 2024 à 18:30</time>"))
        #expect(photo.contains("Photos © Zq Xv · <a href=\"../tags/index.html\">Mots-clés</a> · <a href=\"../people/index.html\">Personnes</a> · "))
        #expect(photo.contains("Télécharger l’original</a>"))
        #expect(photo.contains("<dt>Focale</dt><dd>50 mm (75 mm en équivalent 24×36)</dd>"))
        #expect(try output.read("zq/b.html").contains(">14 juillet 2024</time>"), "a date without a time")
        #expect(try output.read("zq/frames/0.json").contains(#""date":"14 juillet 2024 à 18:30""#))

        // People, places, credits and search.
        #expect(try output.read("people/index.html").contains("<h1>Personnes</h1>"))
        #expect(try output.read("places/index.html").contains("<h1>Lieux</h1>"))
        #expect(try output.read("people/zara-quill/index.html").contains("<title>Zara Quill · Zq</title>"))
        let credited = try output.read("pp/img_0001.html")
        #expect(credited.contains("aria-label=\"Personnes\"><li>") && credited.contains("aria-label=\"Lieu\"><li>"))
        #expect(credited.contains("<dt>Auteur</dt><dd>Jq Vx</dd>") && credited.contains("<dt>Droits d’auteur</dt><dd>© 2024 Jq Vx</dd>"))
        #expect(credited.contains("placeholder=\"Rechercher des photos\"") && credited.contains(">Plus de photos</button>"))
        #expect(credited.contains(#""search_found":{"many":"{count} de photos trouvées.","one":"{count} photo trouvée.","other":"{count} photos trouvées."}"#))
        #expect(credited.contains(">Personnes</a> · <a href=\"../places/index.html\">Lieux</a> · Créé avec Cascade</footer>"))
        let pp = try output.read("pp/index.html")
        #expect(pp.contains("Photos © Jq Vx et Zq Xv · "), "two people's photos: the footer names both")
        #expect(pp.contains("alt=\"Photo 1 de Pp\""), "a camera's file name is no name: its place in its album")
        #expect(pp.contains(#""viewer_credit_by":"Par {name}","viewer_credit_with":"Avec {names}""#))
        if Self.hasVideo { #expect(pp.contains(">2 photos, 1 vidéo</p>")) }
    }

    @Test("the word check finds English: an English build of the same site is full of it")
    func englishIsFound() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        _ = try await build(source, output, language: "en")
        let found = try Self.englishWords(output, language: "fr")
        #expect(found["zq/index.html"]?.isSuperset(of: ["made", "with", "its", "next", "breadcrumbs"]) == true, "\(found)")
        #expect(found["zq/pages/2.html"]?.contains("undated") == true)
        #expect(found["zq/a.html"]?.contains("download") == true)
        #expect(found["pp/img_0001.html"]?.isSuperset(of: ["by", "copyright", "search", "people", "place", "found"]) == true,
                "credits, people, places, the search box: \(found["pp/img_0001.html"] ?? [])")
        #expect(found["people/index.html"]?.contains("people") == true)
        #expect(try output.read("zq/index.html").contains("<html lang=\"en\">"))
        #expect(!(try output.read("zq/index.html")).contains("cascade-strings"), "English pages carry no strings for the viewer")
    }

    @Test("Arabic: right to left, Arabic plural forms, no English word")
    func arabic() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        _ = try await build(source, output, language: "ar")
        for (path, html) in try Self.pages(output) {
            #expect(html.contains("<html lang=\"ar\" dir=\"rtl\">"), "\(path)")
        }
        let english = try Self.englishWords(output, language: "ar")
        #expect(english == [:], "\(english)")
        let album = try output.read("zq/index.html")
        #expect(album.contains("3 صور"), "3 is few in Arabic")
        #expect(try output.read("zq/qx/index.html").contains("صورة واحدة"), "1 is one")
        #expect(album.contains(">14 يوليو، 2024</h2>"), "CLDR's Arabic day, with its Arabic comma")
        #expect(try output.read("people/index.html").contains("<h1>الأشخاص</h1>"))
        #expect(try output.read("places/index.html").contains("<h1>الأماكن</h1>"))
        let credited = try output.read("pp/img_0001.html")
        #expect(credited.contains("<dt>المصوّر</dt><dd>Jq Vx</dd>") && credited.contains("placeholder=\"ابحث في الصور\""))
        #expect(try output.read("pp/index.html").contains("alt=\"الصورة 1 من Pp\""))
        if Self.hasVideo { #expect(try output.read("pp/index.html").contains(">صورتان، مقطع فيديو واحد</p>"), "2 is two, 1 is one") }
    }

    @Test("whole numbers as the language groups them (CLDR), English's plain digits kept")
    func numbers() throws {
        func strings(_ tag: String) throws -> SiteStrings {
            SiteStrings(language: try #require(LanguageTag(tag)), tables: ["en": try Self.table("en")].merging([tag: try Self.table(tag)]) { $1 }, defaults: nil)
        }
        #expect(try strings("en").number(12345) == "12345")
        #expect(try strings("fr").number(12345) == "12\u{202F}345")
        #expect(try strings("de").number(12345) == "12.345")
        #expect(try strings("fr").number(7) == "7")
    }

    @Test("a theme overrides one string; a language with few strings takes English's, one warning a key")
    func overrides() async throws {
        let source = try makeSource()
        let theme = try TemporaryFolder()
        try theme.write("i18n/fr.yml", "made_with: Fait main avec Cascade\n")
        try theme.write("i18n/eo.yml", "made_with: Farita per Cascade\n")
        let output = try TemporaryFolder()
        _ = try await build(source, output, language: "fr", templates: theme.path)
        let root = try output.read("index.html")
        #expect(root.contains("Fait main avec Cascade</footer>"))
        #expect(root.contains(">Mots-clés</a>"), "the other French strings stay")

        let events = Events()
        let other = try TemporaryFolder()
        _ = try await build(source, other, language: "eo", templates: theme.path, events: events)
        let warnings = events.list.withLock { $0 }.compactMap { event -> String? in
            if case .warning(let text) = event { return text } else { return nil }
        }
        #expect(warnings.filter { $0.contains("\"tags\"") } == ["i18n/eo.yml: no string \"tags\" for language eo; the English one is used"])
        #expect(!warnings.contains { $0.contains("\"made_with\"") })
        let page = try other.read("index.html")
        #expect(page.contains("<html lang=\"eo\">") && page.contains("Farita per Cascade</footer>") && page.contains(">Tags</a>"))
    }

    @Test("a theme's strings file of another language is not read: a mistake in it stops only a site in that language")
    func otherLanguagesFilesAreNotRead() async throws {
        let source = try makeSource()
        let theme = try TemporaryFolder()
        try theme.write("i18n/de.yml", "made_with: [unclosed\n")
        let english = try TemporaryFolder()
        _ = try await build(source, english, language: "en", templates: theme.path)
        #expect(try english.read("index.html").contains("<html lang=\"en\">"))
        let german = try TemporaryFolder()
        await #expect {
            _ = try await build(source, german, language: "de", templates: theme.path)
        } throws: { error in
            guard case SiteError.template(let file, _) = error else { return false }
            return file.hasSuffix("i18n/de.yml")
        }
    }

    @Test("a language the theme has no strings for builds in English, with one warning")
    func unknownLanguage() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        let events = Events()
        _ = try await build(source, output, language: "sw", events: events)
        let warnings = events.list.withLock { $0 }.compactMap { event -> String? in
            if case .warning(let text) = event { return text } else { return nil }
        }
        #expect(warnings.filter { $0.contains("language sw") } == ["the theme has no strings for language sw (i18n/sw.yml); the pages are in English"])
        #expect(try output.read("index.html").contains("<html lang=\"en\">"))
    }

    @Test("pt-BR takes pt's strings (its fallback chain)")
    func regionFallsBack() async throws {
        let source = try makeSource()
        let output = try TemporaryFolder()
        let events = Events()
        _ = try await build(source, output, language: "pt-BR", events: events)
        let root = try output.read("index.html")
        #expect(root.contains("<html lang=\"pt-BR\">") && root.contains("Feito com Cascade"))
        #expect(events.list.withLock { $0 }.allSatisfy { if case .warning = $0 { false } else { true } })
    }

    @Test("every shipped strings file has every key of en.yml, and the counts have their language's forms")
    func shippedFiles() throws {
        let english = try Self.table("en")
        let tags = embeddedThemeFiles.keys.filter { $0.hasPrefix("i18n/") }.map { String($0.dropFirst(5).dropLast(4)) }
        #expect(Set(tags) == ["en", "fr", "de", "es", "it", "pt", "nl", "pl", "ja", "zh-Hans", "ar"])
        for tag in tags {
            let table = try Self.table(tag)
            #expect(Set(table.entries.keys) == Set(english.entries.keys), "\(tag)")
            guard case .plural(let forms) = table.entries["photo_count"] else { Issue.record("\(tag): photo_count"); continue }
            let language = LanguageTag(tag)!.language
            let needed = Set((0...1_000_000).lazy.filter { $0 < 1000 || $0 % 1_000_000 == 0 }.map { PluralRules.category($0, language: language) })
            #expect(needed.isSubset(of: Set(forms.keys)), "\(tag) needs \(needed)")
        }
    }
}
