/// A CLDR plural category: which form of a word a number takes ("1 photo", "2 photos";
/// Polish "2 zdjęcia", "5 zdjęć"; Arabic's six forms).
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
    case zero, one, two, few, many, other
}

/// The CLDR plural rules (cardinals) of the shipped languages and a few more, for whole numbers
/// (Cascade only counts things).
///
/// ICU's `uplrules_select` is in Foundation's private `_FoundationICU` on Linux, but not as a
/// module this package can import (the toolchain ships the library, not its headers), and
/// Foundation's own inflection APIs are not on Linux; so the rules are written here, each copied
/// from CLDR's `common/supplemental/plurals.xml` (CLDR 44+) and reduced to integers: for an
/// integer `n`, `i = n`, `v = 0` (no visible fraction digits), `e = 0` (not compact notation).
/// A language not listed has English's rules when it is `en`, else only `other`.
public enum PluralRules {
    /// The category of the whole number `n` in `language` (a language subtag: `pl`, `pt`).
    public static func category(_ n: Int, language: String) -> PluralCategory {
        let n = n.magnitude  // rules are stated for absolute values
        let mod10 = n % 10, mod100 = n % 100
        switch language {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my":
            // <pluralRules locales="... ja ... zh ..."> only: other
            return .other
        case "en", "de", "nl", "sv", "da", "nb", "no", "fi", "et", "el", "hu", "tr", "bg":
            // en, de, nl (and others): one: i = 1 and v = 0
            return n == 1 ? .one : .other
        case "fr":
            // fr: one: i = 0,1
            //     many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        case "pt":
            // pt: one: i = 0..1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        case "es":
            // es: one: n = 1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        case "it", "ca":
            // it, ca: one: i = 1 and v = 0; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        case "pl":
            // pl: one: i = 1 and v = 0
            //     few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14
            //     many: v = 0 and i != 1 and i % 10 = 0..1 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 12..14
            if n == 1 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "ru", "uk":
            // ru, uk: one: v = 0 and i % 10 = 1 and i % 100 != 11
            //         few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14; many: the other integers
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "cs", "sk":
            // cs, sk: one: i = 1 and v = 0; few: i = 2..4 and v = 0; many: v != 0 (none for integers)
            if n == 1 { return .one }
            return (2...4).contains(n) ? .few : .other
        case "ar":
            // ar: zero: n = 0; one: n = 1; two: n = 2; few: n % 100 = 3..10; many: n % 100 = 11..99
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                if (3...10).contains(mod100) { return .few }
                if (11...99).contains(mod100) { return .many }
                return .other
            }
        case "he", "iw":
            // he: one: i = 1 and v = 0 or i = 0 and v != 0; two: i = 2 and v = 0
            return n == 1 ? .one : n == 2 ? .two : .other
        case "fa", "hi", "bn":
            // fa, hi, bn: one: i = 0 or n = 1
            return n <= 1 ? .one : .other
        default:
            return .other
        }
    }
}
