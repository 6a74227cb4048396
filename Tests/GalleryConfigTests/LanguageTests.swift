import Foundation
import Testing

@testable import GalleryConfig

/// Languages: BCP 47 tags and their fallback chains, CLDR plural rules, month and day names.
@Suite("Languages")
struct LanguageTests {
    @Test("well-formed BCP 47 tags are accepted, canonically cased; others are refused")
    func tags() {
        #expect(LanguageTag("fr")?.identifier == "fr")
        #expect(LanguageTag("pt-br")?.identifier == "pt-BR")
        #expect(LanguageTag("pt_BR")?.identifier == "pt-BR")
        #expect(LanguageTag("ZH-hans")?.identifier == "zh-Hans")
        #expect(LanguageTag("zh-Hant-TW")?.identifier == "zh-Hant-TW")
        #expect(LanguageTag("es-419")?.identifier == "es-419")
        for bad in ["", "f", "fr!", "fr--FR", "12", "fr-FR-toolongsubtag", "français"] {
            #expect(LanguageTag(bad) == nil, "\(bad)")
        }
    }

    @Test("the fallback chain goes from the most specific tag to English")
    func chains() {
        #expect(LanguageTag("pt-BR")!.fallbackChain == ["pt-BR", "pt", "en"])
        #expect(LanguageTag("zh-Hans-CN")!.fallbackChain == ["zh-Hans-CN", "zh-Hans", "zh", "en"])
        #expect(LanguageTag("en-GB")!.fallbackChain == ["en-GB", "en"])
        #expect(LanguageTag("ar")!.isRightToLeft && LanguageTag("he")!.isRightToLeft && LanguageTag("fa-IR")!.isRightToLeft)
        #expect(!LanguageTag("fr")!.isRightToLeft && !LanguageTag("zh-Hans")!.isRightToLeft)
    }

    @Test("cascade.yml's language: a tag, or an error naming the key and the line")
    func configuration() throws {
        #expect(try SiteConfiguration.parse("language: pt-BR").language.identifier == "pt-BR")
        #expect(try SiteConfiguration.parse("").language == .english)
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("title: x\nlanguage: French!") }
        do {
            _ = try SiteConfiguration.parse("title: x\nlanguage: French!")
        } catch {
            #expect(error.description == "cascade.yml:2: language: must be a BCP 47 language tag such as fr, de, pt-BR, zh-Hans or ar, not \"French!\"")
        }
    }

    func categories(_ numbers: ClosedRange<Int>, _ language: String) -> Set<PluralCategory> {
        Set(numbers.map { PluralRules.category($0, language: language) })
    }

    @Test("French: 0 and 1 are one, a million is many, the rest other")
    func french() {
        #expect(PluralRules.category(0, language: "fr") == .one)
        #expect(PluralRules.category(1, language: "fr") == .one)
        #expect(categories(2...999, "fr") == [.other])
        #expect(PluralRules.category(1_000_000, language: "fr") == .many)
        #expect(PluralRules.category(0, language: "en") == .other && PluralRules.category(1, language: "en") == .one)
    }

    @Test("Polish: 1 one, 2-4 few, 5-21 many, 22-24 few, 12-14 many, 25 many")
    func polish() {
        #expect(PluralRules.category(1, language: "pl") == .one)
        #expect(categories(2...4, "pl") == [.few])
        #expect(categories(5...21, "pl") == [.many])
        #expect(categories(22...24, "pl") == [.few])
        #expect(PluralRules.category(0, language: "pl") == .many)
        #expect(PluralRules.category(25, language: "pl") == .many)
        #expect(PluralRules.category(112, language: "pl") == .many)
        #expect(PluralRules.category(102, language: "pl") == .few)
    }

    @Test("Arabic: 0 zero, 1 one, 2 two, 3-10 few, 11-99 many, 100-102 other, 103 few")
    func arabic() {
        #expect(PluralRules.category(0, language: "ar") == .zero)
        #expect(PluralRules.category(1, language: "ar") == .one)
        #expect(PluralRules.category(2, language: "ar") == .two)
        #expect(categories(3...10, "ar") == [.few])
        #expect(categories(11...99, "ar") == [.many])
        #expect(categories(100...102, "ar") == [.other])
        #expect(PluralRules.category(103, language: "ar") == .few)
        #expect(PluralRules.category(111, language: "ar") == .many)
    }

    @Test("Japanese and Chinese have only other")
    func other() {
        #expect(categories(0...200, "ja") == [.other])
        #expect(categories(0...200, "zh") == [.other])
    }

    @Test("dates in French: month and day names from CLDR through date_format's tokens")
    func frenchDates() throws {
        let names = DateNames(language: LanguageTag("fr")!)
        let day = try #require(GalleryDate(year: 2024, month: 7, day: 14))
        #expect(DateFormat(pattern: "D MMMM YYYY").string(day, names: names) == "14 juillet 2024")
        #expect(DateFormat(pattern: "dddd D MMMM YYYY").string(day, names: names) == "dimanche 14 juillet 2024")
        #expect(DateFormat(pattern: "dddd D MMMM YYYY").string(day) == "Sunday 14 July 2024")
        #expect(DateFormat(pattern: "ddd D MMM").string(day) == "Sun 14 Jul", "English keeps its three-letter names")
        let evening = try #require(GalleryDate(year: 2024, month: 7, day: 14, hour: 18, minute: 30))
        #expect(DateFormat(pattern: "D MMMM YYYY à HH:mm").string(evening, names: names) == "14 juillet 2024 à 18:30")
        #expect(PhotoGrouping.day.label(20240714, names: names, undated: "Sans date") == "14 juillet 2024")
        #expect(PhotoGrouping.month.label(202407, names: names) == "juillet 2024")
        #expect(PhotoGrouping.month.label(nil, names: names, undated: "Sans date") == "Sans date")
        // English headers are as they always were.
        #expect(PhotoGrouping.day.label(20240714) == "14 July 2024" && PhotoGrouping.month.label(202407) == "July 2024")
        // Polish: a month in a date is in the genitive, a month alone in the nominative (CLDR).
        let polish = DateNames(language: LanguageTag("pl")!)
        #expect(DateFormat(pattern: "D MMMM YYYY").string(day, names: polish) == "14 lipca 2024")
        #expect(PhotoGrouping.month.label(202407, names: polish) == "lipiec 2024")
    }

    @Test("weekdays: Zeller's congruence against known dates")
    func weekdays() {
        #expect(DateNames.weekday(year: 2024, month: 7, day: 14) == 0)  // a Sunday
        #expect(DateNames.weekday(year: 2000, month: 1, day: 1) == 6)  // a Saturday
        #expect(DateNames.weekday(year: 2024, month: 2, day: 29) == 4)  // a Thursday
    }

    @Test("a strings file: texts and plural forms; other is required")
    func stringsFile() throws {
        let table = try StringTable.parse("close: Fermer\nphoto_count:\n  one: \"{count} photo\"\n  other: \"{count} photos\"\n", file: "fr.yml")
        #expect(table.entries["close"] == .text("Fermer"))
        #expect(table.entries["photo_count"] == .plural([.one: "{count} photo", .other: "{count} photos"]))
        #expect(throws: ConfigurationError.self) { try StringTable.parse("photo_count:\n  one: x\n", file: "fr.yml") }
        #expect(throws: ConfigurationError.self) { try StringTable.parse("photo_count:\n  several: x\n  other: y\n", file: "fr.yml") }
    }
}
