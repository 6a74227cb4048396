import Foundation
import GalleryConfig
import Mustache

/// The theme: Mustache templates that render pages, and static assets copied to `assets/`.
///
/// The default theme is the repository's `templates/` folder, embedded into the binary at build
/// time. A user's theme folder overrides it file by file: a file with the same relative path
/// replaces the default one, and any other file is added.
struct Theme: Sendable {
    /// Templates by name (relative path without `.mustache`, e.g. `album`, `partials/head`).
    let library: MustacheLibrary
    /// Static files by path relative to `assets/`.
    let assets: [String: Data]
    /// A fingerprint of every file of the theme and of the language: pages made with another
    /// theme or in another language are made again.
    let fingerprint: String
    /// The words of the pages in the site's language (`i18n/<tag>.yml`, see ``SiteStrings``).
    let strings: SiteStrings

    /// Loads the default theme, overridden by the files of `directory` when given, with the
    /// strings of `language`; `values` fills the site-wide `{name}`s of the strings (`{site}`;
    /// `{author}` is filled page by page, with whom the page's photos are by).
    init(overrides directory: String?, language: LanguageTag = .english, values: [String: String] = [:]) throws(SiteError) {
        var files: [String: Data] = [:]
        for (path, text) in embeddedThemeFiles {
            files[path] = Data(text.utf8)
        }
        var overrides: [String: Data] = [:]
        if let directory {
            overrides = try Self.readFiles(in: directory)
            for (path, data) in overrides {
                files[path] = data
            }
        }
        // Each file's path and bytes, each followed by a zero byte.
        var hasher = FingerprintHasher()
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            (Array(path.utf8) + [0]).withUnsafeBytes { hasher.combine(raw: $0) }
            data.withUnsafeBytes { hasher.combine(raw: $0) }
            [UInt8(0)].withUnsafeBytes { hasher.combine(raw: $0) }
        }
        hasher.combine("language=" + language.identifier)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { hasher.combine(name + "=" + value) }
        fingerprint = hasher.hex
        // The strings files: `i18n/<BCP 47 tag>.yml`, one a language. A theme's file overrides
        // the default theme's key by key: it may hold just the strings it changes or adds.
        // Only the files along the language's fallback chain are read (the others' words are
        // never shown: parsing every language's file was most of a no-op build's start).
        var tables: [String: StringTable] = [:]
        var defaults: StringTable?
        let chain = Set(language.fallbackChain)
        let defaultFiles = embeddedThemeFiles.mapValues { Data($0.utf8) }
        for (source, isOverride) in [(defaultFiles, false), (overrides, true)] {
            for (path, data) in source.sorted(by: { $0.key < $1.key }) where path.hasPrefix("i18n/") && path.hasSuffix(".yml") {
                let name = String(path.dropFirst("i18n/".count).dropLast(".yml".count))
                guard !name.contains("/"), let tag = LanguageTag(name), chain.contains(tag.identifier) else { continue }
                let shown = isOverride ? (directory! as NSString).appendingPathComponent(path) : path
                guard let text = String(data: data, encoding: .utf8) else {
                    throw .template(file: shown, reason: "not UTF-8 text")
                }
                let table: StringTable
                do {
                    table = try StringTable.parse(text, file: shown)
                } catch {
                    throw .template(file: shown, reason: error.messageWithoutFile)
                }
                tables[tag.identifier, default: StringTable()].entries.merge(table.entries) { _, new in new }
                // (The default theme's English, which the viewer's own words are compared with.)
                if !isOverride, path == "i18n/en.yml" { defaults = table }
            }
        }
        strings = SiteStrings(language: language, tables: tables, defaults: defaults, values: values)
        var library = MustacheLibrary()
        var assets: [String: Data] = [:]
        HTMLEscaping.register()
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            if path.hasSuffix(".mustache") {
                let name = String(path.dropLast(".mustache".count))
                // (A theme folder's file by its path, as its author finds it.)
                let shown = overrides[path] != nil ? (directory! as NSString).appendingPathComponent(path) : path
                guard let text = String(data: data, encoding: .utf8) else {
                    throw .template(file: shown, reason: "not UTF-8 text")
                }
                do {
                    library.register(try MustacheTemplate(string: HTMLEscaping.applied(to: text)), named: name)
                } catch {
                    // (Parsed again as written, so that the mistake's line number is the file's own.)
                    do { _ = try MustacheTemplate(string: text) } catch { throw .template(file: shown, reason: TemplateMistake.describe(error)) }
                    throw .template(file: shown, reason: TemplateMistake.describe(error))
                }
            } else if path.hasPrefix("assets/") {
                assets[String(path.dropFirst("assets/".count))] = data
            }
        }
        for required in ["album", "photo"] where library.getTemplate(named: required) == nil {
            throw .template(file: "\(required).mustache", reason: "missing from the theme")
        }
        self.library = library
        self.assets = assets
    }

    /// Renders template `name` with a page's variables (``PageContext/mustache``).
    /// Every page also gets the theme's (``ThemeVariables``: `{{t.key}}`, `htmlLang`, `rtl`).
    func render(_ name: String, _ variables: [String: Any]) throws(SiteError) -> String {
        var variables = variables
        ThemeVariables(strings).add(to: &variables)
        guard let output = library.render(variables, withTemplate: name) else {
            throw .template(file: "\(name).mustache", reason: "missing from the theme")
        }
        return output
    }

    private static func readFiles(in directory: String) throws(SiteError) -> [String: Data] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .template(file: directory, reason: "the theme folder does not exist")
        }
        var files: [String: Data] = [:]
        for path in (fileManager.subpaths(atPath: directory) ?? []).sorted() {
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let full = (directory as NSString).appendingPathComponent(path)
            guard fileManager.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            guard let data = fileManager.contents(atPath: full) else {
                throw .template(file: full, reason: "cannot be read")
            }
            files[path] = data
        }
        return files
    }
}
