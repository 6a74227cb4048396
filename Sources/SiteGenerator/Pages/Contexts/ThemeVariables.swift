/// The variables the theme gives every page besides the page's own (``PageContext``): its
/// strings (`{{t.key}}`), its language and direction, and the viewer's and search box's
/// strings when they are not the scripts' built-in English.
struct ThemeVariables: Sendable {
    /// Texts by key in the site's language (``SiteStrings/texts``).
    let t: [String: String]
    /// `<html lang>`: the language's BCP 47 tag.
    let htmlLang: String
    /// A right-to-left language (`dir="rtl"`).
    let rtl: Bool
    let viewerStrings: String?
    let searchStrings: String?

    init(_ strings: SiteStrings) {
        t = strings.texts
        htmlLang = strings.language.identifier
        rtl = strings.language.isRightToLeft
        viewerStrings = strings.viewerJSON
        searchStrings = strings.searchJSON
    }

    /// Adds the variables to a page's (``PageContext/mustache``).
    func add(to values: inout [String: Any]) {
        values["t"] = t
        values["htmlLang"] = htmlLang
        values["rtl"] = rtl
        if let viewerStrings { values["viewerStrings"] = viewerStrings }
        if let searchStrings { values["searchStrings"] = searchStrings }
    }
}
