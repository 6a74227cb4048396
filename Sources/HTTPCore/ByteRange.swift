import Foundation

/// A `Range` request header's meaning for a representation of a known size (RFC 9110, 14.2).
public enum ByteRange: Equatable, Sendable {
    /// Send the whole representation: no header, another unit, several ranges or bad syntax
    /// (a server may ignore a Range header it does not support).
    case whole
    /// Send these bytes with 206 Partial Content.
    case partial(ClosedRange<Int>)
    /// 416 Range Not Satisfiable: the range starts after the end (or is an empty suffix).
    case unsatisfiable

    /// Interprets a `Range` header for a representation of `size` bytes.
    public init(header: String?, size: Int) {
        guard let header else { self = .whole; return }
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let spec = value.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let digits = { (text: String) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if first.isEmpty {
            // bytes=-N: the last N bytes.
            guard digits(last) else { self = .whole; return }
            guard let count = Int(last) else { self = size > 0 ? .partial(0...(size - 1)) : .unsatisfiable; return }
            guard count > 0, size > 0 else { self = .unsatisfiable; return }
            self = .partial(max(0, size - count)...(size - 1))
            return
        }
        guard digits(first) else { self = .whole; return }
        guard let start = Int(first) else { self = .unsatisfiable; return }  // beyond any file
        var end = Int.max
        if !last.isEmpty {
            guard digits(last) else { self = .whole; return }
            end = Int(last) ?? Int.max
            guard start <= end else { self = .whole; return }
        }
        guard start < size else { self = .unsatisfiable; return }
        self = .partial(start...min(end, size - 1))
    }
}
