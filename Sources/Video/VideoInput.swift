import Imaging

/// A video opened for ffmpeg: through a descriptor checked against the scan (``SourceFile``),
/// its container known from its first bytes. ffmpeg and ffprobe get the descriptor as their
/// standard input and read it as `/dev/stdin` (on Linux a fresh, seekable opening of the same
/// file, which the MOV demuxer needs), with the demuxer pinned (`-f`) and only the `file`
/// protocol allowed: neither the file's name nor anything inside it (a DASH manifest, an
/// `ffconcat` list, an HLS playlist, a reference movie) can make ffmpeg open another file.
public struct VideoInput: Sendable {
    /// The open file.
    public let file: SourceFile
    /// Its container.
    public let container: VideoContainer

    /// What ffmpeg is told the input is (`/dev/stdin`, the descriptor given as standard input).
    public static let inputName = "/dev/stdin"

    /// Opens the video at `path` (the scan's resolved path), refusing a link, another file or
    /// folder than the scan's (`scanned`), and content that is no known container.
    public init(path: String, scanned: ScannedFile?) throws(VideoError) {
        do throws(SourceFileError) {
            file = try SourceFile.open(path, scanned: scanned)
        } catch {
            throw .source(error.description)
        }
        if file.size == 0 { throw .empty }
        guard let container = VideoSniffer.container(file.prefix(VideoSniffer.headerLength)) else { throw .notAContainer }
        self.container = container
    }

    /// The input options and input, to stand where `-i FILE` would.
    public var arguments: [String] {
        ["-protocol_whitelist", "file", "-f", container.demuxer, "-i", Self.inputName]
    }
}
