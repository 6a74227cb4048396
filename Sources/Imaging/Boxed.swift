/// A value kept out of line, behind one reference: a property of this wrapper takes 8 bytes in
/// its struct, whatever the value's size.
///
/// For the large, mostly-empty parts of the values a build holds once per photo (a photo's
/// metadata, a video's details): 100,000 photos held their records inline at 700 to 1,500 bytes
/// each, several times over, and a rebuild of such a library peaked at 670 MiB. Values are
/// never shared mutably (a change makes a new box), and they encode and decode exactly as the
/// value itself would; an optional one is left out when nil, as an optional property is.
@propertyWrapper
public struct Boxed<Value> {
    private final class Box {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    public var wrappedValue: Value {
        get { box.value }
        set { box = Box(newValue) }
    }
}

extension Boxed: @unchecked Sendable where Value: Sendable {}

extension Boxed: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.box === b.box || a.wrappedValue == b.wrappedValue
    }
}

extension Boxed: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension Boxed: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Boxed: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }
}

// An optional boxed property is left out when nil and may be missing, as an optional one.
extension KeyedEncodingContainer {
    public mutating func encode<Wrapped: Encodable>(_ value: Boxed<Wrapped?>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    public func decode<Wrapped: Decodable>(_ type: Boxed<Wrapped?>.Type, forKey key: Key) throws -> Boxed<Wrapped?> {
        Boxed(wrappedValue: try decodeIfPresent(Wrapped.self, forKey: key))
    }
}
