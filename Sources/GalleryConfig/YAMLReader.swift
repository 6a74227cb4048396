import Foundation
import Yams

/// Reads Yams nodes against a schema, turning every mismatch into a ``ConfigurationError`` that
/// names the file, the dotted key path and the line (from the nodes' marks).
struct YAMLReader {
    /// The file named in errors.
    let file: String
    /// Added to Yams' 1-based lines (front matter starts below the opening `---`).
    var lineOffset = 0

    /// A key's value, with the key's dotted path and the lines of key and value.
    struct Entry {
        var key: String
        var path: String
        var keyNode: Node
        var value: Node
    }

    func line(_ node: Node?) -> Int? {
        node?.mark.map { $0.line + lineOffset }
    }

    func error(_ kind: ConfigurationError.Kind, _ path: String?, _ node: Node?, _ reason: String) -> ConfigurationError {
        ConfigurationError(kind: kind, file: file, key: path, line: line(node), reason: reason)
    }

    /// The document's root node, `nil` for an empty document.
    func compose(_ text: String) throws(ConfigurationError) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            switch error {
            case .duplicatedKeysInMapping(let duplicates, let context):
                let key = duplicates.first ?? "?"
                let first = context.mark.line
                throw ConfigurationError(
                    kind: .duplicateKey, file: file, key: key,
                    line: Self.repeatedLine(of: key, after: first, in: text).map { $0 + lineOffset } ?? first + lineOffset,
                    reason: "given twice (first on line \(first + lineOffset)); keep one")
            case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
                 .composer(let context, let problem, let mark, _):
                let where_ = context.map { " (\($0.text))" } ?? ""
                throw ConfigurationError(kind: .syntax, file: file, line: mark.line + lineOffset,
                                         reason: "not valid YAML: \(problem)\(where_)")
            default:
                throw ConfigurationError(kind: .syntax, file: file, reason: "not valid YAML: \(error)")
            }
        } catch {
            throw ConfigurationError(kind: .syntax, file: file, reason: "not valid YAML: \(error)")
        }
    }

    /// The line (1-based) after `line` where `key:` appears again, for Yams' duplicate-key error
    /// that only marks the first occurrence.
    static func repeatedLine(of key: String, after line: Int, in text: String) -> Int? {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        if lines[line - 1].components(separatedBy: key + ":").count > 2 { return line }  // `{a: 1, a: 2}`
        for index in line..<lines.count {
            var rest = lines[index].drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
            for quote in ["", "\"", "'"] where rest.hasPrefix(quote + key + quote + ":") { return index + 1 }
        }
        return nil
    }

    /// The entries of a mapping; an unknown or repeated key is an error. Keys whose value is
    /// empty (`key:` or `key: null`) are left out, so they keep their defaults.
    func entries(of node: Node, at path: String, allowed: [String], what: String) throws(ConfigurationError) -> [Entry] {
        guard let mapping = node.mapping else {
            throw error(.wrongType, path, node, "expected \(what) (a mapping of keys to values), found \(describe(node))")
        }
        var seen: [String: Int] = [:]
        var result: [Entry] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
                throw error(.wrongType, path, keyNode, "a key must be a plain name, found \(describe(keyNode))")
            }
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            guard allowed.contains(key) else {
                var reason = "unknown key"
                if let guess = nearest(key, in: allowed) { reason += " (did you mean `\(guess)`?)" }
                reason += "; allowed here: " + allowed.joined(separator: ", ")
                throw error(.unknownKey, keyPath, keyNode, reason)
            }
            if let first = seen[key] {
                throw error(.duplicateKey, keyPath, keyNode, "given twice (first on line \(first)); keep one")
            }
            seen[key] = line(keyNode) ?? 0
            if value.isNullValue { continue }
            result.append(Entry(key: key, path: keyPath, keyNode: keyNode, value: value))
        }
        return result
    }

    func int(_ entry: Entry, in range: ClosedRange<Int>, unit: String = "") -> Result<Int, ConfigurationError> {
        int(entry.value, at: entry.path, in: range, unit: unit)
    }

    func int(_ node: Node, at path: String, in range: ClosedRange<Int>, unit: String = "") -> Result<Int, ConfigurationError> {
        let allowed = "a whole number from \(range.lowerBound) to \(range.upperBound)\(unit)"
        guard let scalar = node.scalar, node.tagName == .int else {
            return .failure(error(.wrongType, path, node, "expected \(allowed), found \(describe(node))"))
        }
        guard let value = Int.construct(from: scalar), range.contains(value) else {
            return .failure(error(.badValue, path, node, "must be \(allowed), not \(scalar.string)"))
        }
        return .success(value)
    }

    func bool(_ entry: Entry) -> Result<Bool, ConfigurationError> {
        guard let scalar = entry.value.scalar, entry.value.tagName == .bool, let value = Bool.construct(from: scalar) else {
            return .failure(error(.wrongType, entry.path, entry.value,
                                  "expected true or false, found \(describe(entry.value))"))
        }
        return .success(value)
    }

    /// Any scalar read as text (`title: 2024` is the title "2024"); lists and mappings are refused.
    func text(_ entry: Entry) -> Result<String, ConfigurationError> {
        guard let scalar = entry.value.scalar else {
            return .failure(error(.wrongType, entry.path, entry.value, "expected text, found \(describe(entry.value))"))
        }
        return .success(scalar.string)
    }

    /// One of a fixed set of words.
    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, at path: String, as type: T.Type) -> Result<T, ConfigurationError>
    where T.RawValue == String {
        let allowed = T.allCases.map(\.rawValue)
        let list = allowed.joined(separator: ", ")
        guard let scalar = node.scalar, node.tagName == .str || node.tagName == .bool || node.tagName == .null else {
            return .failure(error(.wrongType, path, node, "expected one of \(list), found \(describe(node))"))
        }
        guard let value = T(rawValue: scalar.string.lowercased()) else {
            return .failure(error(.badValue, path, node, "must be one of \(list), not \"\(scalar.string)\""))
        }
        return .success(value)
    }

    /// The items of a list, each with its path (`formats[1]`).
    func items(_ entry: Entry, what: String) -> Result<[(path: String, node: Node)], ConfigurationError> {
        guard let sequence = entry.value.sequence else {
            return .failure(error(.wrongType, entry.path, entry.value, "expected a list of \(what), found \(describe(entry.value))"))
        }
        guard !sequence.isEmpty else {
            return .failure(error(.badValue, entry.path, entry.value, "must list at least one of \(what)"))
        }
        return .success(sequence.enumerated().map { ("\(entry.path)[\($0.offset)]", $0.element) })
    }

    /// A list of widths in pixels, sorted and without repeats.
    func widths(_ entry: Entry) -> Result<[Int], ConfigurationError> {
        Result { () throws(ConfigurationError) -> [Int] in
            var values: [Int] = []
            for (path, node) in try items(entry, what: "widths in pixels").get() {
                let value = try int(node, at: path, in: SettingRange.imageWidth, unit: " (pixels)").get()
                guard !values.contains(value) else {
                    throw error(.badValue, path, node, "\(value) is listed twice; list each width once")
                }
                values.append(value)
            }
            return values.sorted()
        }
    }

    /// A few words for what a node holds, for "expected X, found Y".
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping (key: value lines)"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            switch node.tagName {
            case .int, .float: return "the number \(scalar.string)"
            case .bool: return "the value \(scalar.string) (true/false)"
            case .null: return "nothing"
            default: return "the text \"\(scalar.string)\""
            }
        }
    }

    /// The allowed key closest to a misspelt one, when it is close enough to be a typo.
    private func nearest(_ key: String, in allowed: [String]) -> String? {
        let lower = key.lowercased().replacingOccurrences(of: "-", with: "_")
        let scored = allowed.map { ($0, distance(lower, $0)) }.min { $0.1 < $1.1 }
        guard let (best, score) = scored, score <= max(2, best.count / 3) else { return nil }
        return best
    }

    private func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension Node {
    /// The node's resolved tag (`tag:yaml.org,2002:int`, ...).
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }

    /// `key:` with nothing after it, or `key: null` / `~`.
    var isNullValue: Bool {
        if case .scalar = self, tagName == .null { return true }
        return false
    }
}
