/// FNV-1a, 64 bits, of `bytes`, as 16 hex digits: a fast fingerprint of a file's content
/// (to notice a file that was touched but not changed), not a security measure.
func contentHash(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { contentHash(raw: $0) }
}

/// ``contentHash(_:)`` of bytes in memory (a file read into `Data`, hashed where it lies
/// rather than copied into an array first).
func contentHash(raw bytes: UnsafeRawBufferPointer) -> String {
    var hasher = FingerprintHasher()
    hasher.combine(raw: bytes)
    return hasher.hex
}

/// FNV-1a, 64 bits, fed value by value: the fingerprint of a page's variables without first
/// writing them out as text, of the theme's files, and of a file's content (``contentHash(_:)``).
///
/// Every value is fed with a tag for its kind, and strings, arrays and dictionaries with their
/// length, so two different contexts never feed the same bytes (`["ab"]` and `["a", "b"]`,
/// a string `"1"` and a number `1`, differ). Dictionary entries are fed in key order, so the
/// fingerprint does not depend on a dictionary's iteration order.
struct FingerprintHasher {
    private static let prime: UInt64 = 0x0000_0100_0000_01B3
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The fingerprint so far, as 16 hex digits.
    var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Feeds a page's variables: dictionaries, arrays, strings, booleans and numbers as a
    /// Mustache context holds them; anything else by its description.
    mutating func combine(context value: Any) {
        // The most common kinds first: each failed cast costs.
        switch value {
        case let text as String:
            combine(text)
        case let flag as Bool:
            combine(byte: flag ? UInt8(ascii: "T") : UInt8(ascii: "F"))
        case let number as Int:
            combine(tag: "i", count: number)
        case let dictionary as [String: Any]:
            combine(tag: "d", count: dictionary.count)
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                combine(key)
                combine(context: value)
            }
        case let array as [Any]:
            combine(tag: "a", count: array.count)
            for element in array { combine(context: element) }
        case let number as Double:
            combine(tag: "f", count: Int(bitPattern: UInt(number.bitPattern)))
        default:
            combine(byte: UInt8(ascii: "?"))
            combine(String(describing: value))
        }
    }

    /// Feeds a string: its tag, its length in UTF-8 bytes, its bytes.
    mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            combine(tag: "s", count: bytes.count)
            combine(raw: UnsafeRawBufferPointer(bytes))
        }
    }

    /// The fingerprint so far, as a number (what ``combine(value:)`` feeds into another).
    var value: UInt64 { state }

    /// Feeds a number: the fingerprint of a part made on its own (``value``).
    mutating func combine(value: UInt64) {
        combine(tag: "u", count: Int(bitPattern: UInt(value)))
    }

    /// Feeds bytes as they are, without a tag or a length.
    mutating func combine(raw bytes: UnsafeRawBufferPointer) {
        var state = self.state
        for byte in bytes { state = (state ^ UInt64(byte)) &* Self.prime }
        self.state = state
    }

    private mutating func combine(tag: Unicode.Scalar, count: Int) {
        combine(byte: UInt8(ascii: tag))
        var value = UInt64(bitPattern: Int64(count))
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    private mutating func combine(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* Self.prime
    }
}
