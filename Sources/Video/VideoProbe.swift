import Foundation
import Imaging

/// Reads a video's streams and metadata with `ffprobe` (JSON output), with a time limit.
public enum VideoProbe {
    /// Seconds ffprobe may take on one file.
    public static let timeout: Double = 30
    /// The largest picture side taken (H.264 and HEVC stop at 16384; AV1 at 65536).
    public static let maximumSide = 65536

    /// Probes the video at `path` (opened and checked as ``VideoInput`` does; `scanned` is where
    /// the scan found it).
    public static func probe(fileAtPath path: String, scanned: ScannedFile? = nil, tools: MediaTools) throws(VideoError) -> VideoInfo {
        let input = try VideoInput(path: path, scanned: scanned)
        let output = try ProcessRunner.run(
            tools.ffprobe,
            ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"] + input.arguments,
            input: input.file.descriptor, timeout: timeout)
        if output.timedOut { throw .timedOut(tool: "ffprobe", seconds: timeout) }
        guard output.status == 0 else { throw .unreadable(Self.reason(output.lastErrorLine)) }
        return try parse(output.standardOutput)
    }

    /// ffprobe's reason without the input's name (the message names the file already).
    static func reason(_ line: String, path: String = VideoInput.inputName) -> String {
        var text = line.replacingOccurrences(of: path + ": ", with: "").replacingOccurrences(of: path, with: "the file")
        if text.hasPrefix("[") , let end = text.firstIndex(of: "]") { text = String(text[text.index(after: end)...]).trimmingCharacters(in: .whitespaces) }
        return text
    }

    /// The record from ffprobe's JSON (`-show_format -show_streams`).
    public static func parse(_ json: Data) throws(VideoError) -> VideoInfo {
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: json)
        } catch {
            throw .unreadable("ffprobe's answer cannot be read")
        }
        let streams = report.streams ?? []
        // Cover art (an attached picture) is not the video.
        guard let video = streams.first(where: { $0.codec_type == "video" && $0.disposition?.attached_pic != 1 }) else {
            throw .noVideoStream
        }
        guard let codec = video.codec_name, !codec.isEmpty else { throw .unsupportedCodec(video.codec_tag_string ?? "unknown") }
        // Every number is checked before use: a conversion of `nan`, `inf` or 1e300 to Int traps.
        guard let width = video.width, let height = video.height, (1...Self.maximumSide).contains(width),
              (1...Self.maximumSide).contains(height) else {
            throw .unreadable("no picture size")
        }
        let audio = streams.first { $0.codec_type == "audio" }
        let duration = Double(report.format?.duration ?? "") ?? Double(video.duration ?? "") ?? 0
        guard duration.isFinite, duration > 0 else { throw .unreadable("no duration") }
        var rotation = 0
        var problems: [String] = []
        if let value = video.side_data_list?.compactMap(\.rotation).first {
            switch CheckedNumber.integer(value, field: "display matrix rotation", in: -360...360) {
            case .success(let degrees): rotation = degrees
            case .failure(let problem): problems.append(problem.description + "; shown unturned")
            }
        } else if let tag = video.tags?["rotate"] {
            switch CheckedNumber.integer(tag, field: "rotate tag", in: -360...360) {
            case .success(let degrees): rotation = -degrees  // the tag turns clockwise, the display matrix anticlockwise
            case .failure(let problem): problems.append(problem.description + "; shown unturned")
            }
        }
        rotation = ((rotation % 360) + 360) % 360
        let tags = (report.format?.tags ?? [:]).merging(video.tags ?? [:]) { first, _ in first }
        let hasLocation = tags.keys.contains { $0.lowercased().contains("location") }
        return VideoInfo(
            storedWidth: width, storedHeight: height, rotation: rotation, duration: duration, videoCodec: codec,
            pixelFormat: video.pix_fmt ?? "", audioCodec: audio?.codec_name, container: report.format?.format_name ?? "",
            creationDate: creationDate(tags),
            hasLocation: hasLocation, fieldProblems: problems.isEmpty ? nil : problems, probeVersion: version)
    }

    /// The version of what a probe reads: raised whenever it learns to read more (local time
    /// and zone from QuickTime keys: 2), so that a probe kept in the catalog is made again.
    public static let version = 2

    /// The recording date with its zone: the local time a phone wrote with its offset
    /// (`com.apple.quicktime.creationdate`, as iPhones write it: `2024-07-31T21:15:00-0400`;
    /// else the QuickTime `©day` that ffprobe calls `date`, as Android phones and cameras write
    /// it), else `creation_time`, which is UTC (`2024-08-01T01:15:00.000000Z`, kept with its `Z`:
    /// the instant is known, the local zone is not). The first that is a date; the zeroed
    /// dates muxers write for "unknown" (1904, 1970) are none.
    static func creationDate(_ tags: [String: String]) -> String? {
        let local = [tags["com.apple.quicktime.creationdate"], tags["date"]].compactMap { $0 }
            .first { CaptureDateText.isDate($0) && $0.count > 10 }
        if let local { return local.trimmingCharacters(in: .whitespaces) }
        guard let utc = tags["creation_time"]?.trimmingCharacters(in: .whitespaces), CaptureDateText.isDate(utc),
              !utc.hasPrefix("1904-01-01"), !utc.hasPrefix("1970-01-01T00:00:00") else { return nil }
        // ffmpeg writes `creation_time` in UTC whether or not it ends in `Z`.
        return utc.hasSuffix("Z") || utc.hasSuffix("z") || utc.count == 10 ? utc : utc + "Z"
    }

    private struct Report: Decodable {
        var streams: [Stream]?
        var format: Format?
    }

    private struct Stream: Decodable {
        var codec_type: String?
        var codec_name: String?
        var codec_tag_string: String?
        var width: Int?
        var height: Int?
        var pix_fmt: String?
        var duration: String?
        var tags: [String: String]?
        var side_data_list: [SideData]?
        var disposition: Disposition?
    }

    private struct SideData: Decodable {
        var rotation: Double?
    }

    private struct Disposition: Decodable {
        var attached_pic: Int?
    }

    private struct Format: Decodable {
        var format_name: String?
        var duration: String?
        var tags: [String: String]?
    }
}
