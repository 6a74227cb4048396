import Catalog
import Imaging
import Video

/// What a photo's images in one format depend on besides the photo: a rebuild reuses them
/// only when their record names the same key.
///
/// Records and store entries keep the key as text, ``stored``, its one rendering; it must stay
/// exactly what earlier builds wrote (`imaging=4;widths=320,640;format=jpeg80;gps=strip`, and
/// for a wide-gamut photo's images `;colour=wide` or `;colour=srgb` after it), or every
/// image of an existing site would be made again.
struct ImageSettingsKey: Hashable, Sendable, CustomStringConvertible {
    /// The version of the way images are made: raised when the same settings make other images.
    static let imagingVersion = 4

    /// Every width a photo's images may get, ascending.
    let widths: [Int]
    let format: EncodeFormat
    /// Whether JPEG images keep the photo's GPS position.
    let keepGPS: Bool
    /// The `colour` setting, in the key of a wide-gamut photo's images alone: it shapes no
    /// other photo's images, so switching it remakes theirs alone. Nil in every other key.
    let colour: OutputColour?
    /// The key as records and store entries name it.
    let stored: String

    /// The key of images made at `widths` in `format`, any photo's (no `colour`).
    init(widths: [Int], format: EncodeFormat, keepGPS: Bool) {
        self.init(widths: widths, format: format, keepGPS: keepGPS, colour: nil,
                  stored: Self.rendering(widths: widths, format: format, keepGPS: keepGPS))
    }

    private init(widths: [Int], format: EncodeFormat, keepGPS: Bool, colour: OutputColour?, stored: String) {
        self.widths = widths
        self.format = format
        self.keepGPS = keepGPS
        self.colour = colour
        self.stored = stored
    }

    /// The key of a wide-gamut photo's images made with the `colour` setting `colour`.
    func wide(_ colour: OutputColour) -> ImageSettingsKey {
        // (The key without a colour, plus the colour: as cheap as the text it replaces, since
        // it is asked of photo after photo.)
        let plain = self.colour == nil ? stored : Self.rendering(widths: widths, format: format, keepGPS: keepGPS)
        return ImageSettingsKey(widths: widths, format: format, keepGPS: keepGPS, colour: colour, stored: plain + ";colour=\(colour.rawValue)")
    }

    var description: String { stored }

    private static func rendering(widths: [Int], format: EncodeFormat, keepGPS: Bool) -> String {
        "imaging=\(imagingVersion);widths=\(widths.map(String.init).joined(separator: ","));format=\(format.settingsKey);gps=\(keepGPS ? "keep" : "strip")"
    }
}

extension EncodeFormat {
    /// The format and its quality, as ``ImageSettingsKey`` names them (`jpeg80`, `png`).
    var settingsKey: String {
        switch self {
        case .jpeg(let quality): "jpeg\(quality)"
        case .webp(let quality): "webp\(quality)"
        case .png: "png"
        case .avif(let quality): "avif\(quality)"
        }
    }
}

/// What a video's web version, or a Live Photo's motion clip, depends on besides its content.
/// Records keep ``stored``, its one rendering, which must stay what earlier builds wrote: the
/// video key (`video=1;mp4;…`), after `live;` for a motion clip.
enum ClipSettingsKey: Hashable, Sendable, CustomStringConvertible {
    /// A video's web version; the key is nil without ffmpeg (nothing can be made then).
    case video(VideoSettingsKey?)
    /// A Live Photo's motion clip (published muted); the key is nil without ffmpeg.
    case live(VideoSettingsKey?)

    /// The key as records name it.
    var stored: String {
        switch self {
        case .video(let key): key?.stored ?? ""
        case .live(let key): "live;" + (key?.stored ?? "")
        }
    }

    var description: String { stored }
}

extension BuildManifest.PhotoRecord {
    /// The files made with `key`, or, for a wide-gamut photo, with `key` and the `colour`
    /// setting `colour` (nil: any photo's alone), by ascending width; nil when none were.
    func files(madeWith key: ImageSettingsKey, colour: OutputColour?) -> [String]? {
        if let files = files(madeWith: key.stored) { return files }
        guard let colour else { return nil }
        return files(madeWith: key.wide(colour).stored)
    }
}
