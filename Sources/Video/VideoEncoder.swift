import Foundation
import Imaging

/// How the web version of a video is made.
public struct VideoSettings: Sendable, Hashable {
    /// The largest height of the web version as shown (after the display rotation a phone
    /// records), in pixels (`video_max_height`): a portrait clip's long side.
    public var maxHeight: Int
    /// 1 to 100 (`video_quality`), mapped to x264's constant rate factor.
    public var quality: Int
    /// Longer videos are skipped (`video_max_duration`, seconds).
    public var maxDuration: Double
    /// ffmpeg threads per encode (0: ffmpeg's choice).
    public var threads: Int
    /// The time limit of one encode in seconds; nil for the default, generous one (see
    /// ``VideoEncoder/timeout(for:)``).
    public var timeLimit: Double?

    /// Creates settings: 1080 px, quality 75, 30 minutes by default.
    public init(maxHeight: Int = 1080, quality: Int = 75, maxDuration: Double = 1800, threads: Int = 0) {
        self.maxHeight = maxHeight
        self.quality = quality
        self.maxDuration = maxDuration
        self.threads = threads
    }

    /// x264's constant rate factor for ``quality``: 100 → 15, 75 → 24, 1 → 51.
    public var constantRateFactor: Int {
        min(51, max(0, Int((51 - Double(quality) * 0.36).rounded())))
    }

    /// What a web version depends on besides the video: a rebuild reuses it only when this is
    /// the same.
    public var key: VideoSettingsKey {
        VideoSettingsKey(constantRateFactor: constantRateFactor, maxHeight: maxHeight, limitsShownHeight: false)
    }

    /// What the web version of `info` depends on besides the video. Earlier versions limited
    /// the shorter side rather than the height: for the one kind of video whose web version
    /// that changes (a portrait clip taller than the limit) the key says so, and it is made
    /// again once; every other video keeps its web version.
    public func key(for info: VideoInfo) -> VideoSettingsKey {
        VideoSettingsKey(
            constantRateFactor: constantRateFactor, maxHeight: maxHeight,
            limitsShownHeight: info.displayHeight > max(info.displayWidth, maxHeight))
    }
}

/// What a video's web version depends on besides the video (``VideoSettings/key(for:)``).
///
/// Catalog records keep ``stored``, its one rendering, which must stay what earlier releases
/// wrote (`video=1;mp4;h264;crf=24;maxh=1080;aac=128k;metadata=strip`, then `;maxh=shown`
/// for a portrait clip taller than the limit), or every web version would be made again.
public struct VideoSettingsKey: Hashable, Sendable, CustomStringConvertible {
    /// x264's constant rate factor.
    public let constantRateFactor: Int
    /// The largest height of the web version as shown, in pixels.
    public let maxHeight: Int
    /// Whether the video is a portrait clip taller than ``maxHeight``, whose web version
    /// earlier versions (which limited the shorter side) made otherwise.
    public let limitsShownHeight: Bool

    /// Creates a key.
    public init(constantRateFactor: Int, maxHeight: Int, limitsShownHeight: Bool) {
        self.constantRateFactor = constantRateFactor
        self.maxHeight = maxHeight
        self.limitsShownHeight = limitsShownHeight
    }

    /// The key as records name it.
    public var stored: String {
        "video=1;mp4;h264;crf=\(constantRateFactor);maxh=\(maxHeight);aac=128k;metadata=strip" + (limitsShownHeight ? ";maxh=shown" : "")
    }

    public var description: String { stored }
}

/// The ffmpeg work on one video: its poster frame and its web version.
public struct VideoEncoder: Sendable {
    public var tools: MediaTools
    public var settings: VideoSettings

    /// Creates an encoder.
    public init(tools: MediaTools, settings: VideoSettings) {
        self.tools = tools
        self.settings = settings
    }

    /// Whether the web version copies the streams as they are (already H.264/AAC in MP4, no
    /// higher as shown than ``VideoSettings/maxHeight``), rather than encoding them again.
    public func remuxes(_ info: VideoInfo) -> Bool {
        info.isWebCompatible && info.displayHeight <= settings.maxHeight
    }

    /// The size of the web version, upright: the video as shown, scaled down to at most
    /// ``VideoSettings/maxHeight`` high (never enlarged), in even numbers.
    public func outputSize(_ info: VideoInfo) -> (width: Int, height: Int) {
        let width = info.displayWidth
        let height = info.displayHeight
        let scale = height > settings.maxHeight ? Double(settings.maxHeight) / Double(height) : 1
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }

    /// The poster frame, upright, as PNG bytes: the frame at about a tenth of the video (past a
    /// black first frame), or the first frame of a very short one.
    /// The video is opened as ``VideoInput`` does (`scanned`: where the scan found it).
    public func poster(of path: String, scanned: ScannedFile? = nil, info: VideoInfo) throws(VideoError) -> [UInt8] {
        let input = try VideoInput(path: path, scanned: scanned)
        let time = info.duration >= 0.5 ? info.duration * 0.1 : 0
        let timeout = min(60.0, settings.timeLimit ?? 60)
        let output = try ProcessRunner.run(
            tools.ffmpeg,
            ["-nostdin", "-hide_banner", "-v", "error", "-ss", String(format: "%.3f", time)] + input.arguments
                + ["-map", "0:v:0", "-frames:v", "1", "-an", "-sn", "-dn", "-f", "image2pipe", "-c:v", "png", "-"],
            input: input.file.descriptor, timeout: timeout)
        if output.timedOut { throw .timedOut(tool: "ffmpeg", seconds: timeout) }
        guard output.status == 0, !output.standardOutput.isEmpty else {
            throw .toolFailed(tool: "ffmpeg", reason: "no poster frame: " + VideoProbe.reason(output.lastErrorLine))
        }
        return [UInt8](output.standardOutput)
    }

    /// The time limit of one encode: generous (a slow machine encodes 1080p at about real
    /// time), so that only a stuck ffmpeg meets it.
    public func timeout(for info: VideoInfo) -> Double {
        settings.timeLimit ?? 120 + info.duration * 20
    }

    /// The arguments that make the web version of `input` at `output` (an MP4 with its index
    /// first, every metadata tag, chapter and data track dropped).
    /// `muted` leaves the sound out (a Live Photo's motion clip plays muted). `container`
    /// pins the demuxer and allows only the `file` protocol (see ``VideoInput``).
    public func arguments(input: String, container: VideoContainer? = nil, output: String, info: VideoInfo, muted: Bool = false) -> [String] {
        var arguments = ["-nostdin", "-hide_banner", "-v", "error", "-y", "-protocol_whitelist", "file"]
        if let container { arguments += ["-f", container.demuxer] }
        arguments += ["-i", input, "-map", "0:v:0"]
        arguments += muted ? ["-an"] : ["-map", "0:a:0?"]
        arguments += ["-map_metadata", "-1", "-map_metadata:s", "-1",
                         "-map_chapters", "-1", "-sn", "-dn", "-fflags", "+bitexact"]
        if remuxes(info) {
            arguments += ["-c", "copy"]
        } else {
            let size = outputSize(info)
            arguments += ["-vf", "scale=\(size.width):\(size.height),format=yuv420p", "-c:v", "libx264",
                          "-preset", "fast", "-crf", "\(settings.constantRateFactor)", "-profile:v", "high"]
            if settings.threads > 0 { arguments += ["-threads", "\(settings.threads)"] }
            if !muted { arguments += info.audioCodec == "aac" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "128k", "-ac", "2"] }
        }
        arguments += ["-movflags", "+faststart", "-f", "mp4", output]
        return arguments
    }

    /// Makes the web version of the video at `path` at `output` (opened as ``VideoInput``
    /// does; `scanned`: where the scan found it); returns ffmpeg's messages (for `--verbose`).
    @discardableResult
    public func makeWebVersion(of path: String, scanned: ScannedFile? = nil, at output: String, info: VideoInfo, muted: Bool = false) throws(VideoError) -> String {
        let input = try VideoInput(path: path, scanned: scanned)
        let limit = timeout(for: info)
        let result = try ProcessRunner.run(
            tools.ffmpeg,
            arguments(input: VideoInput.inputName, container: input.container, output: output, info: info, muted: muted),
            input: input.file.descriptor, timeout: limit)
        if result.timedOut { throw .timedOut(tool: "ffmpeg", seconds: limit) }
        guard result.status == 0 else {
            throw .toolFailed(tool: "ffmpeg", reason: VideoProbe.reason(result.lastErrorLine))
        }
        return result.standardError
    }
}
