import Imaging
import Support

/// The catalog's photo records by source path: a dictionary whose values are kept out of line
/// (``Boxed``), one reference per entry.
///
/// A dictionary keeps its values in its hash table, which is a power of two in size and at most
/// three quarters full: 100,000 records of about 200 bytes inline took a table of 262,144 slots,
/// 59 MB, most of it empty, held through a large library's rebuild. Boxed, the table takes 6 MB
/// and the records themselves 22 MB. A record is read as a copy of its value, and replaced as a
/// whole; records are never shared mutably.
package struct PhotoRecords: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Record = BuildManifest.PhotoRecord
    private var storage: [String: Boxed<Record>] = [:]

    package init() {}

    package init(dictionaryLiteral elements: (String, Record)...) {
        for (path, record) in elements { storage[path] = Boxed(wrappedValue: record) }
    }

    /// The record of the photo at source path `path`.
    package subscript(path: String) -> Record? {
        get { storage[path]?.wrappedValue }
        set { storage[path] = newValue.map(Boxed.init(wrappedValue:)) }
    }

    /// The record of the photo at source path `path` as it is kept, to be shared.
    package func boxed(_ path: String) -> Boxed<Record>? {
        storage[path]
    }

    /// Sets the record of the photo at source path `path`, kept as it is.
    package mutating func set(_ path: String, boxed record: Boxed<Record>) {
        storage[path] = record
    }

    /// Each path with its record as it is kept, in no particular order: a loop that reads a few
    /// fields of each record (`box.wrappedValue.video`) does not copy every record.
    package var boxes: Dictionary<String, Boxed<Record>> { storage }

    /// The source paths that have a record.
    package var keys: Dictionary<String, Boxed<Record>>.Keys { storage.keys }
    package var count: Int { storage.count }
    package var isEmpty: Bool { storage.isEmpty }

    package mutating func reserveCapacity(_ capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// Each path with its record, in no particular order.
    package func makeIterator() -> some IteratorProtocol<(key: String, value: Record)> {
        storage.lazy.map { (key: $0.key, value: $0.value.wrappedValue) }.makeIterator()
    }

    package var underestimatedCount: Int { storage.count }
}

extension PhotoRecords: Codable {
    /// Encoded as the dictionary of records itself (the shape of earlier releases' manifests).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(storage.mapValues(\.wrappedValue))
    }

    package init(from decoder: any Decoder) throws {
        storage = try decoder.singleValueContainer().decode([String: Record].self).mapValues(Boxed.init(wrappedValue:))
    }
}
