import Foundation

/// The compact binary form of `Codable` values the catalog kept its photo records in before
/// they became tables of plain columns (catalog versions 2 to 5). Only the migration to tables
/// reads it, once per record (``OldPhotoRecords``); the tests write it, to make old catalogs.
///
/// Every value is tagged with its kind, and keyed containers keep their keys, so a record
/// written by another version of a type fails to decode (and its photo is made anew) rather than
/// decode to wrong values; a key the type does not know is ignored, a missing one is nil for an
/// optional and an error otherwise, as with JSON. The first byte is never `{`, so the catalog
/// tells this form from the JSON of earlier releases.
enum RecordCoder {
    /// The kinds of value, the first byte of each.
    fileprivate enum Tag: UInt8 {
        case null = 0x01, `false`, `true`, integer, unsigned, double, string, keyed, unkeyed
    }

    /// What goes wrong decoding: the bytes are not a record of the type asked for.
    struct DecodingFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        encoder.storage.value.write(to: &bytes)
        return Data(bytes)
    }

    /// The value of type `T` in `data`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { raw in
            let reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            let end = try reader.skip(0)
            guard end == reader.bytes.count else { throw DecodingFailure(description: "bytes after the record") }
            return try T(from: ValueDecoder(reader: reader, offset: 0))
        }
    }
}

/// The entries of the keyed value at `offset`: each key's byte range, its value's offset and the
/// key's sketch (its length and first and last bytes: most keys differ in these, so that a key
/// that is not there is told from the others without comparing bytes).
private func keyedEntries(reader: Reader, offset: Int) throws -> [(key: Range<Int>, value: Int, sketch: UInt32)] {
    guard try reader.tag(at: offset) == .keyed else { throw reader.failure("a keyed value was expected") }
    var (count, next) = try reader.varint(at: offset + 1)
    guard count <= UInt64(reader.bytes.count) else { throw reader.failure("too many entries") }
    var entries: [(key: Range<Int>, value: Int, sketch: UInt32)] = []
    entries.reserveCapacity(Int(count))
    while count > 0 {
        let key = try reader.stringRange(at: next)
        entries.append((key, key.upperBound, keySketch(UnsafeBufferPointer(rebasing: reader.bytes[key]))))
        next = try reader.skip(key.upperBound)
        count -= 1
    }
    return entries
}

/// A key's length and first and last bytes (see ``keyedEntries(reader:offset:)``).
private func keySketch(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
    UInt32(truncatingIfNeeded: utf8.count) << 16 | UInt32(utf8.first ?? 0) << 8 | UInt32(utf8.last ?? 0)
}

/// The index of the entry whose key is the UTF-8 `key`, looked for from `start` on and then
/// from the first entry (values are mostly read in the order they were written, so that a key
/// is found at the first try instead of after half the others); nil when there is none.
private func entryIndex(
    of key: UnsafeBufferPointer<UInt8>, in entries: [(key: Range<Int>, value: Int, sketch: UInt32)], from start: Int, reader: Reader
) -> Int? {
    let sketch = keySketch(key)
    var index = start
    for _ in 0..<entries.count {
        if index == entries.count { index = 0 }
        if entries[index].sketch == sketch, reader.equals(entries[index].key, key) { return index }
        index += 1
    }
    return nil
}

// MARK: - Encoding: a tree of values, then bytes

/// An encoded value.
private indirect enum EncodedValue {
    case null, bool(Bool), integer(Int64), unsigned(UInt64), double(Double), string(String)
    case keyed(EncodedBox), unkeyed(EncodedBox)

    func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(RecordCoder.Tag.null.rawValue)
        case .bool(let value): bytes.append(value ? RecordCoder.Tag.true.rawValue : RecordCoder.Tag.false.rawValue)
        case .integer(let value):
            bytes.append(RecordCoder.Tag.integer.rawValue)
            writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
        case .unsigned(let value):
            bytes.append(RecordCoder.Tag.unsigned.rawValue)
            writeVarint(value, to: &bytes)
        case .double(let value):
            bytes.append(RecordCoder.Tag.double.rawValue)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let value):
            bytes.append(RecordCoder.Tag.string.rawValue)
            writeString(value, to: &bytes)
        case .keyed(let box):
            bytes.append(RecordCoder.Tag.keyed.rawValue)
            writeVarint(UInt64(box.entries.count), to: &bytes)
            for (key, value) in box.entries {
                writeString(key, to: &bytes)
                value.storage.value.write(to: &bytes)
            }
        case .unkeyed(let box):
            bytes.append(RecordCoder.Tag.unkeyed.rawValue)
            writeVarint(UInt64(box.entries.count), to: &bytes)
            for (_, value) in box.entries { value.storage.value.write(to: &bytes) }
        }
    }
}

private func writeVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
    }
    bytes.append(UInt8(value))
}

private func writeString(_ string: String, to bytes: inout [UInt8]) {
    let utf8 = string.utf8
    writeVarint(UInt64(utf8.count), to: &bytes)
    bytes.append(contentsOf: utf8)
}

/// Where one encoder's value goes: set once, or filled by a container.
private final class EncodedStorage {
    var value: EncodedValue = .null
}

/// A container's entries (keys are empty in unkeyed ones), each with its own storage, so that
/// nested containers and super encoders can fill theirs later.
private final class EncodedBox {
    var entries: [(String, TreeEncoder)] = []
}

private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let storage = EncodedStorage()

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: EncodedBox
        if case .keyed(let existing) = storage.value {
            box = existing
        } else {
            box = EncodedBox()
            storage.value = .keyed(box)
        }
        return KeyedEncodingContainer(KeyedEncoder<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: EncodedBox
        if case .unkeyed(let existing) = storage.value {
            box = existing
        } else {
            box = EncodedBox()
            storage.value = .unkeyed(box)
        }
        return UnkeyedEncoder(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleEncoder(encoder: self)
    }
}

/// Encodes one value into `encoder`'s storage: the scalar types directly, anything else through
/// its own `encode(to:)`.
private func encodeValue<T: Encodable>(_ value: T, into encoder: TreeEncoder) throws {
    switch value {
    case let value as String: encoder.storage.value = .string(value)
    case let value as Bool: encoder.storage.value = .bool(value)
    case let value as Double: encoder.storage.value = .double(value)
    case let value as Float: encoder.storage.value = .double(Double(value))
    case let value as any FixedWidthInteger:
        if let signed = Int64(exactly: value) {
            encoder.storage.value = .integer(signed)
        } else {
            encoder.storage.value = .unsigned(UInt64(value))
        }
    default: try value.encode(to: encoder)
    }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.storage.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: encoder) }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: EncodedBox
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> TreeEncoder {
        let encoder = TreeEncoder(codingPath: codingPath + [key])
        box.entries.append((key.stringValue, encoder))
        return encoder
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).storage.value = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeValue(value, into: child(key)) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { child(key).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { child(Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let box: EncodedBox
    let codingPath: [any CodingKey]
    var count: Int { box.entries.count }

    private func child() -> TreeEncoder {
        let encoder = TreeEncoder(codingPath: codingPath + [IndexKey(box.entries.count)])
        box.entries.append(("", encoder))
        return encoder
    }

    mutating func encodeNil() throws { child().storage.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: child()) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        child().container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { child().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { child() }
}

// MARK: - Decoding: straight from the bytes

/// The bytes being decoded; valid for the duration of `RecordCoder.decode`. A value, not an
/// object: containers copy it without reference counting, which took most of the decoding time.
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>

    func failure(_ what: String) -> RecordCoder.DecodingFailure {
        RecordCoder.DecodingFailure(description: what)
    }

    func byte(at offset: Int) throws -> UInt8 {
        guard offset < bytes.count else { throw failure("the record ends early") }
        return bytes[offset]
    }

    /// The varint at `offset`, and the offset after it.
    func varint(at offset: Int) throws -> (UInt64, Int) {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var offset = offset
        while true {
            let byte = try byte(at: offset)
            offset += 1
            guard shift < 64 else { throw failure("a number is too long") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return (value, offset) }
            shift += 7
        }
    }

    /// The byte range of the string (length and UTF-8) at `offset`.
    func stringRange(at offset: Int) throws -> Range<Int> {
        let (length, start) = try varint(at: offset)
        guard length <= UInt64(bytes.count - start) else { throw failure("a string ends past the record") }
        return start..<start + Int(length)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether the bytes in `range` are `key`.
    func equals(_ range: Range<Int>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        key.count == range.count && (key.isEmpty || memcmp(key.baseAddress!, bytes.baseAddress! + range.lowerBound, key.count) == 0)
    }

    /// The string value at `offset`.
    func string(at offset: Int) throws -> String {
        guard try tag(at: offset) == .string else { throw failure("a string was expected") }
        return string(try stringRange(at: offset + 1))
    }

    /// The number of values of the list at `offset`, and the offset of its first.
    func list(at offset: Int) throws -> (count: Int, first: Int) {
        guard try tag(at: offset) == .unkeyed else { throw failure("a list was expected") }
        let (count, first) = try varint(at: offset + 1)
        guard count <= UInt64(bytes.count) else { throw failure("too many entries") }
        return (Int(count), first)
    }

    func tag(at offset: Int) throws -> RecordCoder.Tag {
        guard let tag = RecordCoder.Tag(rawValue: try byte(at: offset)) else { throw failure("an unknown kind of value") }
        return tag
    }

    /// The offset after the value at `offset`.
    func skip(_ offset: Int, depth: Int = 0) throws -> Int {
        guard depth < 64 else { throw failure("values nested too deeply") }
        switch try tag(at: offset) {
        case .null, .false, .true: return offset + 1
        case .integer, .unsigned: return try varint(at: offset + 1).1
        case .double:
            guard offset + 9 <= bytes.count else { throw failure("the record ends early") }
            return offset + 9
        case .string: return try stringRange(at: offset + 1).upperBound
        case .keyed:
            var (count, next) = try varint(at: offset + 1)
            while count > 0 {
                next = try skip(try stringRange(at: next).upperBound, depth: depth + 1)
                count -= 1
            }
            return next
        case .unkeyed:
            var (count, next) = try varint(at: offset + 1)
            while count > 0 {
                next = try skip(next, depth: depth + 1)
                count -= 1
            }
            return next
        }
    }

    func integer(at offset: Int) throws -> Int64 {
        switch try tag(at: offset) {
        case .integer:
            let raw = try varint(at: offset + 1).0
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        case .unsigned:
            let raw = try varint(at: offset + 1).0
            guard raw <= UInt64(Int64.max) else { throw failure("a number out of range") }
            return Int64(raw)
        default: throw failure("a number was expected")
        }
    }

    func unsigned(at offset: Int) throws -> UInt64 {
        switch try tag(at: offset) {
        case .unsigned: return try varint(at: offset + 1).0
        case .integer:
            let value = try integer(at: offset)
            guard value >= 0 else { throw failure("a negative number where none can be") }
            return UInt64(value)
        default: throw failure("a number was expected")
        }
    }

    func double(at offset: Int) throws -> Double {
        switch try tag(at: offset) {
        case .double:
            guard offset + 9 <= bytes.count else { throw failure("the record ends early") }
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(bytes[offset + 1 + index]) << (8 * UInt64(index)) }
            return Double(bitPattern: bits)
        case .integer: return Double(try integer(at: offset))
        case .unsigned: return Double(try unsigned(at: offset))
        default: throw failure("a number was expected")
        }
    }
}

private func integer<I: FixedWidthInteger>(_ type: I.Type, reader: Reader, offset: Int) throws -> I {
    let value: I?
    switch try reader.tag(at: offset) {
    case .unsigned: value = I(exactly: try reader.unsigned(at: offset))
    default: value = I(exactly: try reader.integer(at: offset))
    }
    guard let value else { throw reader.failure("a number out of range") }
    return value
}

/// Decodes the value at `offset`: the scalar types directly, anything else through its own
/// `init(from:)`.
private func decodeValue<T: Decodable>(_ type: T.Type, reader: Reader, offset: Int) throws -> T {
    if type == String.self { return try reader.string(at: offset) as! T }
    if type == Int.self { return try integer(Int.self, reader: reader, offset: offset) as! T }
    if type == Double.self { return try reader.double(at: offset) as! T }
    if type == Bool.self {
        switch try reader.tag(at: offset) {
        case .true: return true as! T
        case .false: return false as! T
        default: throw reader.failure("true or false was expected")
        }
    }
    if type == UInt64.self { return try integer(UInt64.self, reader: reader, offset: offset) as! T }
    if type == Float.self { return Float(try reader.double(at: offset)) as! T }
    // The other integers by name: a conformance lookup (`as? any FixedWidthInteger.Type`) for
    // every nested value was a tenth of the time.
    if type == Int64.self { return try integer(Int64.self, reader: reader, offset: offset) as! T }
    if type == Int32.self { return try integer(Int32.self, reader: reader, offset: offset) as! T }
    if type == Int16.self { return try integer(Int16.self, reader: reader, offset: offset) as! T }
    if type == Int8.self { return try integer(Int8.self, reader: reader, offset: offset) as! T }
    if type == UInt.self { return try integer(UInt.self, reader: reader, offset: offset) as! T }
    if type == UInt32.self { return try integer(UInt32.self, reader: reader, offset: offset) as! T }
    if type == UInt16.self { return try integer(UInt16.self, reader: reader, offset: offset) as! T }
    if type == UInt8.self { return try integer(UInt8.self, reader: reader, offset: offset) as! T }
    return try T(from: ValueDecoder(reader: reader, offset: offset))
}

private struct ValueDecoder: Decoder {
    let reader: Reader
    let offset: Int
    /// Not kept: errors here only say the record cannot be read.
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedDecoder<Key>(reader: reader, offset: offset))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedDecoder(reader: reader, offset: offset)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleDecoder(reader: reader, offset: offset)
    }
}

private struct SingleDecoder: SingleValueDecodingContainer {
    let reader: Reader
    let offset: Int
    /// Not kept: errors here only say the record cannot be read.
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { (try? reader.tag(at: offset)) == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(type, reader: reader, offset: offset)
    }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: Reader
    /// Not kept: errors here only say the record cannot be read.
    var codingPath: [any CodingKey] { [] }
    /// Per entry, the byte range of its key, the offset of its value and the key's ``sketch``.
    private let entries: [(key: Range<Int>, value: Int, sketch: UInt32)]
    /// Where the next key is looked for first: values are mostly decoded in the order they
    /// were encoded, so that a key is found at the first try instead of after half the others.
    private let cursor = Cursor()

    private final class Cursor {
        var next = 0
    }

    init(reader: Reader, offset: Int) throws {
        self.reader = reader
        entries = try keyedEntries(reader: reader, offset: offset)
    }

    var allKeys: [Key] { entries.compactMap { Key(stringValue: reader.string($0.key)) } }

    private func offset(of key: Key) -> Int? {
        var name = key.stringValue
        guard let index = name.withUTF8({ entryIndex(of: $0, in: entries, from: cursor.next, reader: reader) }) else { return nil }
        cursor.next = index + 1
        return entries[index].value
    }

    private func value(_ key: Key) throws -> Int {
        guard let offset = offset(of: key) else { throw reader.failure("no value for \(key.stringValue)") }
        return offset
    }

    func contains(_ key: Key) -> Bool { offset(of: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try reader.tag(at: try value(key)) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeValue(type, reader: reader, offset: try value(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = offset(of: key), try reader.tag(at: offset) != .null else { return nil }
        return try decodeValue(type, reader: reader, offset: offset)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(try KeyedDecoder<NestedKey>(reader: reader, offset: try value(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try UnkeyedDecoder(reader: reader, offset: try value(key))
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(reader: reader, offset: try value(Key(stringValue: "super")!))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(reader: reader, offset: try value(key))
    }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let reader: Reader
    /// Not kept: errors here only say the record cannot be read.
    var codingPath: [any CodingKey] { [] }
    let count: Int?
    var currentIndex = 0
    /// The offset of the next value.
    private var next: Int

    init(reader: Reader, offset: Int) throws {
        self.reader = reader
        let list = try reader.list(at: offset)
        count = list.count
        next = list.first
    }

    var isAtEnd: Bool { currentIndex >= count! }

    private mutating func advance() throws -> Int {
        guard !isAtEnd else { throw reader.failure("a list ends early") }
        let offset = next
        next = try reader.skip(offset)
        currentIndex += 1
        return offset
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try reader.tag(at: next) == .null else { return false }
        _ = try advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(type, reader: reader, offset: try advance())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        return KeyedDecodingContainer(try KeyedDecoder<NestedKey>(reader: reader, offset: try advance()))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        return try UnkeyedDecoder(reader: reader, offset: try advance())
    }

    mutating func superDecoder() throws -> any Decoder {
        return ValueDecoder(reader: reader, offset: try advance())
    }
}
