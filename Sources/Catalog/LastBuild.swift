
/// What the last complete build of an output folder found and made, kept in the ``Catalog``
/// with its ``BuildStamp``: a build whose stamp is the same has nothing to do, and reports this
/// summary again (the same counts, the same warnings and skipped files, in the same order)
/// instead of scanning and planning the whole library.
package struct LastBuild: Codable, Sendable, Equatable {
    /// A warning or a skipped file the scan reported, to be reported again.
    package enum Event: Codable, Sendable, Equatable {
        case warning(String)
        case skipped(path: String, reason: String, line: Int?)
    }

    package var stamp: BuildStamp
    /// What the scan found (the "Found N photos in M albums" line).
    package var scannedPhotos: Int
    package var scannedAlbums: Int
    /// The build report's counts.
    package var albums: Int
    package var photos: Int
    package var videos: Int
    package var pages: Int
    /// What the scan reported, in order.
    package var events: [Event]
    /// Each folder of the photo folder by its path relative to it (`""` for the photo folder
    /// itself), with the fingerprint of its own inputs: the build's settings, theme and program,
    /// and the folder's entries (`SiteGenerator`'s `BuildStamp.inputs(options:source:theme:)`).
    /// The next build compares its own with them to tell which folders changed.
    package var folders: [String: String] = [:]

    package init(stamp: BuildStamp, scannedPhotos: Int, scannedAlbums: Int, albums: Int, photos: Int, videos: Int, pages: Int,
                 events: [Event], folders: [String: String] = [:]) {
        self.stamp = stamp
        self.scannedPhotos = scannedPhotos
        self.scannedAlbums = scannedAlbums
        self.albums = albums
        self.photos = photos
        self.videos = videos
        self.pages = pages
        self.events = events
        self.folders = folders
    }
}

/// The fingerprints of a build's inputs and of the output folder it left (what they cover:
/// `SiteGenerator`'s `BuildStamp.inputs(options:source:theme:)` and `BuildStamp.output(root:jobs:)`).
package struct BuildStamp: Sendable, Equatable, Codable {
    /// The fingerprint of everything the site is made from.
    package var inputs: String
    /// The fingerprint of the output folder's entries.
    package var output: String

    package init(inputs: String, output: String) {
        self.inputs = inputs
        self.output = output
    }
}
