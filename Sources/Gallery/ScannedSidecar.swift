import Imaging

/// An XMP sidecar's fields as a scan took them, with the file they came from: read from the
/// file, or given by the scan's `knownSidecar` for a file of the same identity (a catalog keeps
/// them, so that a rebuild does not parse every sidecar of a library again: editing one changes
/// its identity, and it is read anew).
public struct ScannedSidecar: Sendable, Equatable {
    /// The sidecar's path, relative to the photo folder.
    public var relativePath: String
    /// The file as the walk found it, before it was read.
    public var identity: FileIdentity
    public var fields: XMPMetadata
    /// Whether this scan read the file (else `knownSidecar` gave its fields).
    public var isNew: Bool

    /// Creates a sidecar's record.
    public init(relativePath: String, identity: FileIdentity, fields: XMPMetadata, isNew: Bool) {
        self.relativePath = relativePath
        self.identity = identity
        self.fields = fields
        self.isNew = isNew
    }
}
