/// A value kept out of line, behind one reference: a property of this wrapper takes 8 bytes in
/// its struct, whatever the value's size.
///
/// For the large, mostly-empty parts of the values a build holds once per photo (a photo's
/// metadata, a video's details): 100,000 photos held their records inline at 700 to 1,500 bytes
/// each, several times over, and a rebuild of such a library peaked at 670 MiB. Values are
/// never shared mutably (a change makes a new box), and they encode and decode exactly as the
/// value itself would. For optional values, ``BoxedOptional``.
@propertyWrapper
public struct Boxed<Value> {
    // (Inlinable, as the accessors below: unspecialized, each box made looked up its generic
    // type's metadata at run time, under a lock, for every photo of a large library.)
    @usableFromInline final class Box {
        @usableFromInline let value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline var box: Box

    @inlinable public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    /// The value, read in place (a read of one of its fields does not copy the whole value).
    @inlinable public var wrappedValue: Value {
        _read { yield box.value }
        set { box = Box(newValue) }
    }
}

extension Boxed: @unchecked Sendable where Value: Sendable {}

extension Boxed: Equatable where Value: Equatable {
    @inlinable public static func == (a: Self, b: Self) -> Bool {
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

/// An optional value kept out of line as ``Boxed`` keeps a value, without a box while it is nil
/// (most photos have no video, no motion clip, no sidecar): encoded as the optional itself, left
/// out when nil, and nil when missing.
@propertyWrapper
public struct BoxedOptional<Wrapped> {
    @usableFromInline var boxed: Boxed<Wrapped>?

    @inlinable public init(wrappedValue: Wrapped?) {
        boxed = wrappedValue.map(Boxed.init(wrappedValue:))
    }

    @inlinable public var wrappedValue: Wrapped? {
        get { boxed?.wrappedValue }
        set { boxed = newValue.map(Boxed.init(wrappedValue:)) }
    }
}

extension BoxedOptional: Sendable where Wrapped: Sendable {}
extension BoxedOptional: Equatable where Wrapped: Equatable {}
extension BoxedOptional: Hashable where Wrapped: Hashable {}

extension BoxedOptional: Encodable where Wrapped: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension BoxedOptional: Decodable where Wrapped: Decodable {
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Wrapped?.self))
    }
}

// An optional boxed property is left out when nil and may be missing, as an optional one.
extension KeyedEncodingContainer {
    public mutating func encode<Wrapped: Encodable>(_ value: BoxedOptional<Wrapped>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    public func decode<Wrapped: Decodable>(_ type: BoxedOptional<Wrapped>.Type, forKey key: Key) throws -> BoxedOptional<Wrapped> {
        BoxedOptional(wrappedValue: try decodeIfPresent(Wrapped.self, forKey: key))
    }
}
