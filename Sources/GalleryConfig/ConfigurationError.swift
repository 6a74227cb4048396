/// A problem with one of the YAML files Cascade reads (`cascade.yml`, an album's `index.md` front
/// matter), or with writing the starter `cascade.yml`.
///
/// Its ``description`` names the file, the line, the key as a dotted path (`breakpoints[2].columns`),
/// what is wrong and what is allowed, for example:
///
///     /photos/cascade.yml:7: breakpoints[2].columns: must be a whole number from 1 to 24, not 0
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The file exists but cannot be read (or is not UTF-8 text).
        case unreadable
        /// The file is not valid YAML (or front matter has no closing `---`).
        case syntax
        /// A key that Cascade does not know (often a typo; the reason suggests the nearest key).
        case unknownKey
        /// The same key appears twice in one mapping.
        case duplicateKey
        /// A value of the wrong type: text where a number belongs, a single value where a list belongs, ...
        case wrongType
        /// A value of the right type outside what is allowed (a quality of 0, an unknown format, ...).
        case badValue
        /// `cascade init` found a `cascade.yml` already there and left it alone.
        case alreadyExists
        /// The starter file could not be written.
        case unwritable
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The file, as the caller named it (a path, or a path relative to the photo folder).
    public var file: String
    /// The key as a dotted path from the top of the document (`breakpoints[2].columns`); `nil`
    /// when the problem is the file as a whole.
    public var key: String?
    /// The 1-based line in `file`, when known.
    public var line: Int?
    /// What is wrong and what is allowed, without the file, line and key.
    public var reason: String

    /// Creates an error.
    public init(kind: Kind, file: String, key: String? = nil, line: Int? = nil, reason: String) {
        self.kind = kind
        self.file = file
        self.key = key
        self.line = line
        self.reason = reason
    }

    /// `file:line: key: reason` (the parts that are known).
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key, !key.isEmpty { text += "\(key): " }
        return text + reason
    }

    /// `line N: key: reason`, for messages that name the file separately.
    public var messageWithoutFile: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        if let key, !key.isEmpty { parts.append(key) }
        parts.append(reason)
        return parts.joined(separator: ": ")
    }
}
