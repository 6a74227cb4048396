/// What ffprobe says about a video: its picture as shown (after the rotation phones record),
/// its length and codecs, and the metadata that matters to a gallery.
public struct VideoInfo: Sendable, Hashable, Codable {
    /// The stored frame size, before rotation.
    public var storedWidth: Int
    public var storedHeight: Int
    /// The rotation to apply when showing it, in degrees (0, 90, 180, 270).
    public var rotation: Int
    /// Length in seconds.
    public var duration: Double
    /// ffmpeg's names of the video codec (`h264`, `hevc`, `vp9`...) and its pixel format.
    public var videoCodec: String
    public var pixelFormat: String
    /// The audio codec (`aac`, `opus`...), nil without sound.
    public var audioCodec: String?
    /// ffmpeg's name of the container (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`...).
    public var container: String
    /// The recording date with its zone, as ``VideoProbe`` found it: local with an offset
    /// (`2024-07-31T21:15:00-0400`) or UTC (`2024-08-01T01:15:00.000000Z`).
    public var creationDate: String?
    /// Whether the file carries a location (ISO 6709 `location` tags).
    public var hasLocation: Bool
    /// The numbers in the file that were out of range and left out, each as a user reads it
    /// ("its rotate tag (nan) is not a number in -360…360; shown unturned"); nil when none.
    public var fieldProblems: [String]?
    /// The ``VideoProbe/version`` that made the record (nil: before versions); a record of
    /// another version is probed again.
    public var probeVersion: Int?

    /// Creates a record.
    public init(
        storedWidth: Int, storedHeight: Int, rotation: Int, duration: Double, videoCodec: String, pixelFormat: String,
        audioCodec: String?, container: String, creationDate: String? = nil, hasLocation: Bool = false,
        fieldProblems: [String]? = nil, probeVersion: Int? = nil
    ) {
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.rotation = rotation
        self.duration = duration
        self.videoCodec = videoCodec
        self.pixelFormat = pixelFormat
        self.audioCodec = audioCodec
        self.container = container
        self.creationDate = creationDate
        self.hasLocation = hasLocation
        self.fieldProblems = fieldProblems
        self.probeVersion = probeVersion
    }

    /// Whether showing it swaps width and height (a quarter turn).
    public var isQuarterTurn: Bool { rotation == 90 || rotation == 270 }
    /// The size as shown.
    public var displayWidth: Int { isQuarterTurn ? storedHeight : storedWidth }
    public var displayHeight: Int { isQuarterTurn ? storedWidth : storedHeight }

    /// Whether an MP4 of it plays in every browser as it is: H.264 in 8-bit 4:2:0, AAC or no
    /// sound, in an MP4/MOV container.
    public var isWebCompatible: Bool {
        videoCodec == "h264" && (pixelFormat == "yuv420p" || pixelFormat == "yuvj420p")
            && (audioCodec == nil || audioCodec == "aac") && container.contains("mp4")
    }
}
