import Foundation
import Mustache

/// A sentence for a mistake swift-mustache found in a theme's template: where it is (line,
/// column and the line itself) and what is wrong, in words a theme's author acts on. (The
/// library's own description is a dump of its types: `ParserError(context: …, error:
/// Mustache.MustacheTemplate.Error.sectionCloseNameIncorrect)`.)
enum TemplateMistake {
    /// `error` as a sentence without the file's name (``SiteError/template(file:reason:)`` adds it).
    static func describe(_ error: any Error) -> String {
        guard let parserError = error as? MustacheTemplate.ParserError else { return "\(error)" }
        let context = parserError.context
        // (A long line, a minified template's, is cut: the column says where in it.)
        let whole = context.line.trimmingCharacters(in: .whitespaces)
        let line = whole.count > 80 ? whole.prefix(79) + "…" : whole
        let column = pointsAtTag(parserError.error) ? tagStart(in: context.line, before: context.columnNumber) : context.columnNumber
        let place = "line \(context.lineNumber), column \(column)" + (line.isEmpty ? "" : ": \(line)")
        return place + " — " + what(parserError.error)
    }

    /// Whether the parser stopped inside the tag that is wrong (so the column is better put at
    /// the tag's start): not for a section never closed or text where none may be, which it
    /// finds further on.
    private static func pointsAtTag(_ error: any Error) -> Bool {
        guard let error = error as? MustacheTemplate.Error else { return false }
        switch error {
        case .sectionCloseNameIncorrect, .unfinishedName, .invalidSetDelimiter, .transformAppliedToInheritanceSection,
             .illegalTokenInsideInheritSection, .invalidConfigVariableSyntax, .unrecognisedConfigVariable:
            return true
        case .expectedSectionEnd, .textInsideInheritSection:
            return false
        }
    }

    /// The column (from 1, in characters) of the `{{` (or `{{{`) that opens the tag in which
    /// the parser stopped at `column`: the parser's own column is where it stopped reading,
    /// inside the tag, after its name. `column` when no `{{` comes before it on the line (a
    /// template that set other delimiters).
    static func tagStart(in line: String, before column: Int) -> Int {
        let characters = Array(line)
        var index = min(column - 1, characters.count) - 1
        while index >= 0, !(characters[index] == "{" && index + 1 < characters.count && characters[index + 1] == "{") {
            index -= 1
        }
        guard index >= 0 else { return column }
        while index > 0, characters[index - 1] == "{" { index -= 1 }
        return index + 1
    }

    /// What is wrong, for each of the parser's errors.
    private static func what(_ error: any Error) -> String {
        guard let error = error as? MustacheTemplate.Error else {
            // (The parser's own "overflow": it ran past the end of the text inside a tag.)
            return "the template ends inside a tag: a {{ is never closed by }}"
        }
        switch error {
        case .sectionCloseNameIncorrect:
            return "this closes a section that is not the one open here (each {{#name}} or {{^name}} ends with its own {{/name}})"
        case .unfinishedName:
            return "a tag's name is not finished: a name is letters, digits, dots, dashes and underscores, followed by }}"
        case .expectedSectionEnd:
            return "a section is never closed: a {{#name}} or {{^name}} above has no {{/name}}"
        case .invalidSetDelimiter:
            return "the set-delimiter tag is not well formed: it is written {{=<% %>=}}"
        case .transformAppliedToInheritanceSection:
            return "a transform cannot be applied to an inherited section"
        case .illegalTokenInsideInheritSection:
            return "only block definitions ({{$name}}…{{/name}}) may be inside a partial's {{<name}} section"
        case .textInsideInheritSection:
            return "text is not allowed inside a partial's {{<name}} section, only block definitions"
        case .invalidConfigVariableSyntax:
            return "the pragma tag is not well formed: it is written {{% NAME: value}}"
        case .unrecognisedConfigVariable:
            return "this pragma is not known (the one a template may set is CONTENT_TYPE)"
        }
    }
}
