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
            creationDate: (tags["creation_time"] ?? tags["com.apple.quicktime.creationdate"]).flatMap(exifDate),
            hasLocation: hasLocation, fieldProblems: problems.isEmpty ? nil : problems)
    }

    /// `2024-05-01T10:20:30.000000Z` as `2024:05:01 10:20:30`.
    static func exifDate(_ text: String) -> String? {
        let characters = Array(text)
        guard characters.count >= 19, characters[4] == "-", characters[7] == "-", characters[13] == ":" else { return nil }
        var date = String(characters[0..<19]).replacingOccurrences(of: "T", with: " ")
        date = date.replacingOccurrences(of: "-", with: ":")
        return date.hasPrefix("0000") || date.hasPrefix("1904:01:01") || date.hasPrefix("1970:01:01 00:00:00") ? nil : date
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
