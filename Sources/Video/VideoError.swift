/// Why a video cannot be published. The description is a short reason a user understands.
public enum VideoError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file has no bytes.
    case empty
    /// ffprobe cannot read it (truncated, damaged, or not a video after all).
    case unreadable(String)
    /// The file holds no video stream (sound only, or nothing).
    case noVideoStream
    /// The video stream's codec cannot be decoded by this ffmpeg.
    case unsupportedCodec(String)
    /// Longer than `video_max_duration`.
    case tooLong(seconds: Double, limit: Double)
    /// ffmpeg or ffprobe failed.
    case toolFailed(tool: String, reason: String)
    /// ffmpeg or ffprobe ran past its time limit and was stopped.
    case timedOut(tool: String, seconds: Double)
    /// The work needs `ffmpeg` and `ffprobe`, which are not on the `PATH`.
    case toolsMissing
    /// The file's first bytes are no container Cascade hands to ffmpeg (a playlist, a
    /// manifest or a text file named like a video).
    case notAContainer
    /// The file could not be opened as the scan found it (replaced, or a link now).
    case source(String)

    public var description: String {
        switch self {
        case .empty: "the file is empty"
        case .unreadable(let detail):
            detail.isEmpty ? "the video cannot be read (damaged or truncated)" : "the video cannot be read (\(detail))"
        case .noVideoStream: "the file holds no video stream"
        case .unsupportedCodec(let codec): "its video codec (\(codec)) cannot be decoded by this ffmpeg"
        case .tooLong(let seconds, let limit):
            "the video is \(Duration.label(seconds)) long, longer than video_max_duration (\(Duration.label(limit)))"
        case .toolFailed(let tool, let reason): "\(tool) failed: \(reason)"
        case .timedOut(let tool, let seconds): "\(tool) was stopped after \(Int(seconds.rounded())) s (it took too long)"
        case .toolsMissing: "it needs ffmpeg and ffprobe, which are not on the PATH (\(MediaTools.installHint))"
        case .notAContainer:
            "its content is not a video container cascade reads (MP4/MOV, Matroska/WebM, AVI, MPEG, WMV), whatever its name says"
        case .source(let reason): reason
        }
    }
}

/// Durations as pages and messages show them.
public enum Duration {
    /// `0:07`, `12:04`, `1:02:03`: minutes and seconds (hours when there are any), rounded down.
    public static func label(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(seconds) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
