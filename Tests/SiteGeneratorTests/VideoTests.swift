import Foundation
import Imaging
import Testing
import TestSupport
@testable import Video

@testable import SiteGenerator

/// Test clips made with ffmpeg's `lavfi` sources (nothing big is committed).
enum Clip {
    static let tools = MediaTools.locate()

    /// Runs ffmpeg with `arguments` (quiet, overwriting) and fails the test when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let output = try ProcessRunner.run(tools!.ffmpeg, ["-nostdin", "-v", "error", "-y"] + arguments, timeout: 120)
        guard output.status == 0 else { throw ClipError(message: output.standardError) }
    }

    /// A clip of `seconds` at `size` (`WxH`): its top half red, its bottom half blue, so that
    /// a poster's orientation shows in its pixels; `codec` libx264 (MP4), libx265 or libvpx-vp9.
    static func make(
        _ path: String, size: String = "320x180", seconds: Double = 2, codec: String = "libx264", audio: Bool = true,
        metadata: [String] = []
    ) throws {
        var arguments = ["-f", "lavfi", "-i", "color=c=blue:size=\(size):rate=25"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440"] }
        arguments += ["-t", String(seconds), "-vf", "drawbox=x=0:y=0:w=iw:h=ih/2:color=red:t=fill", "-c:v", codec, "-pix_fmt", "yuv420p"]
        if audio { arguments += codec == "libvpx-vp9" ? ["-c:a", "libopus"] : ["-c:a", "aac"] }
        for tag in metadata { arguments += ["-metadata", tag] }
        try ffmpeg(arguments + [path])
    }

    /// `path` copied stream for stream to `rotated` with a display rotation of `degrees`.
    static func rotate(_ path: String, to rotated: String, degrees: Int) throws {
        try ffmpeg(["-i", path, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", rotated])
    }

    /// The hash of the first video stream's packets (the same for a stream copied as it is).
    static func packetHash(_ path: String) throws -> String {
        let output = try ProcessRunner.run(tools!.ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "hash", "-"], timeout: 60)
        guard output.status == 0 else { throw ClipError(message: output.standardError) }
        return String(decoding: output.standardOutput, as: UTF8.self)
    }

    /// ffprobe's codec names, width and height of the first video stream, and whether it has sound.
    static func probe(_ path: String) throws -> VideoInfo {
        try VideoProbe.probe(fileAtPath: path, tools: tools!)
    }

    struct ClipError: Error, CustomStringConvertible {
        var message: String
        var description: String { "ffmpeg failed: \(message)" }
    }
}

/// Videos beside the photos: probed, posters through the image pipeline, web versions that
/// every browser plays, metadata never published, bad videos skipped with a reason.
@Suite("Videos", .enabled(if: Clip.tools != nil, "ffmpeg and ffprobe are needed"), .serialized)
struct VideoTests {
    static let location = "+48.8577+002.2950/"

    func options(_ source: TemporaryFolder, _ output: TemporaryFolder, jobs: Int = 2) -> SiteOptions {
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: jobs)
        options.tileWidths = [200, 400]
        options.photoWidths = [800]
        options.catalogPath = output.path + "-catalog.sqlite"
        return options
    }

    func build(_ options: SiteOptions, events: Events? = nil) async throws -> BuildReport {
        try await SiteBuilder(options: options).build { event in events?.list.withLock { $0.append(event) } }
    }

    /// The decoded image at the site-relative `path`.
    func image(_ output: TemporaryFolder, _ path: String) throws -> Image {
        try Image.decode([UInt8](try Data(contentsOf: output.url.appendingPathComponent(path))))
    }

    func isRed(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        pixel.red > 180 && pixel.blue < 90
    }

    func isBlue(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        pixel.blue > 180 && pixel.red < 90
    }

    @Test("landscape, rotated portrait, HEVC and VP9 clips get upright posters and H.264 web versions")
    func postersAndWebVersions() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/land.mp4", size: "640x360")
        try Clip.make(source.path + "/stored.mp4", size: "640x360", audio: false)
        try Clip.rotate(source.path + "/stored.mp4", to: source.path + "/portrait.mp4", degrees: 90)
        try FileManager.default.removeItem(atPath: source.path + "/stored.mp4")
        try Clip.make(source.path + "/hevc.mp4", size: "480x360", codec: "libx265", audio: false)
        try Clip.make(source.path + "/vp9.webm", size: "400x300", codec: "libvpx-vp9")
        let report = try await build(options(source, output))
        #expect(report.photos == 4 && report.videos == 4 && report.skipped.isEmpty)

        // Posters: every width up to the video's own, at its shape as shown.
        let land = try image(output, "thumbs/land-400.jpg")
        #expect(land.width == 400 && land.height == 225)
        #expect(isRed(land.pixel(x: 200, y: 20)) && isBlue(land.pixel(x: 200, y: 200)))
        let portrait = try image(output, "thumbs/portrait-360.jpg")
        #expect(portrait.width == 360 && portrait.height == 640)
        // Shown a quarter turn round: the stored top half (red) is a side, the same from top to bottom...
        let redOnRight = isRed(portrait.pixel(x: 330, y: 320))
        #expect(redOnRight != isRed(portrait.pixel(x: 30, y: 320)))
        #expect(isRed(portrait.pixel(x: 330, y: 20)) == redOnRight && isRed(portrait.pixel(x: 330, y: 620)) == redOnRight)
        #expect(isBlue(portrait.pixel(x: 30, y: 20)) == redOnRight && isBlue(portrait.pixel(x: 330, y: 620)) != redOnRight)
        // ...the side the published video shows it on (a player applies the same rotation).
        let frame = try VideoEncoder(tools: Clip.tools!, settings: VideoSettings())
            .poster(of: output.path + "/videos/portrait.mp4", info: try Clip.probe(output.path + "/videos/portrait.mp4"))
        let shown = try Image.decode(frame)
        #expect(shown.width == 360 && shown.height == 640)
        #expect(isRed(shown.pixel(x: 330, y: 320)) == redOnRight && isRed(shown.pixel(x: 30, y: 320)) != redOnRight)

        // Web versions: H.264 in MP4, upright size kept; AAC where the clip had sound.
        let expected: [(String, Int, Int, Bool)] = [("land", 640, 360, true), ("portrait", 360, 640, false),
                                                    ("hevc", 480, 360, false), ("vp9", 400, 300, true)]
        for (name, width, height, audio) in expected {
            let info = try Clip.probe(output.path + "/videos/\(name).mp4")
            #expect(info.videoCodec == "h264" && info.pixelFormat == "yuv420p", "\(name)")
            #expect(info.displayWidth == width && info.displayHeight == height, "\(name): \(info.displayWidth)x\(info.displayHeight)")
            #expect(info.audioCodec == (audio ? "aac" : nil), "\(name)")
            #expect(info.container.contains("mp4"))
        }
        // The compliant clip was copied stream for stream: its video stream's bytes are the source's.
        let encoder = VideoEncoder(tools: Clip.tools!, settings: VideoSettings())
        #expect(encoder.remuxes(try Clip.probe(source.path + "/land.mp4")))
        #expect(!encoder.remuxes(try Clip.probe(source.path + "/hevc.mp4")))
        #expect(!encoder.remuxes(try Clip.probe(source.path + "/vp9.webm")))

        // The page plays it; the tile shows its duration and leads to the page.
        let page = try String(contentsOfFile: output.path + "/land.html", encoding: .utf8)
        #expect(page.contains("<video class=\"photo-video\" src=\"videos/land.mp4\" poster=\"thumbs/land-640.jpg\""))
        #expect(page.contains("controls playsinline preload=\"metadata\""))
        let album = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
        #expect(album.contains("<a class=\"tile is-video\" href=\"land.html\""))
        #expect(album.contains("<span class=\"tile-duration\" aria-hidden=\"true\">0:02</span>"))
        #expect(album.contains("aria-label=\"Video, 0:02, land\""))
        let chunk = try String(contentsOfFile: output.path + "/frames/0.json", encoding: .utf8)
        #expect(chunk.contains("\"video\":{\"url\":\"videos/land.mp4\",\"duration\":\"0:02\"}"))
    }

    @Test("video_max_height limits the height as shown: a portrait clip (stored upright or turned) is scaled to that height, and remuxed only within it")
    func maxHeight() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/wide.mp4", size: "640x360", seconds: 1)
        try Clip.make(source.path + "/tall.mp4", size: "360x640", seconds: 1)
        // Stored 640×360 and shown a quarter turn round: 360×640 as shown.
        try Clip.make(source.path + "/stored.mp4", size: "640x360", seconds: 1, audio: false)
        try Clip.rotate(source.path + "/stored.mp4", to: source.path + "/turned.mp4", degrees: 90)
        try FileManager.default.removeItem(atPath: source.path + "/stored.mp4")
        // H.264/AAC in MP4, 180 px wide: within the limit on its shorter side, not on its height.
        try Clip.make(source.path + "/narrow.mp4", size: "180x320", seconds: 1)
        // Within the limit: copied stream for stream.
        try Clip.make(source.path + "/low.mp4", size: "320x180", seconds: 1)
        var options = options(source, output)
        options.video.maxHeight = 180
        let report = try await build(options)
        #expect(report.videos == 5 && report.skipped.isEmpty)
        let sizes: [(String, Int, Int)] = [("wide", 320, 180), ("tall", 102, 180), ("turned", 102, 180), ("narrow", 102, 180), ("low", 320, 180)]
        for (name, width, height) in sizes {
            let info = try Clip.probe(output.path + "/videos/\(name).mp4")
            #expect(info.displayWidth == width && info.displayHeight == height, "\(name): \(info.displayWidth)x\(info.displayHeight)")
            // Transcodes come out upright; nothing is left for a player to turn.
            #expect(info.rotation == 0, "\(name)")
        }
        let encoder = VideoEncoder(tools: Clip.tools!, settings: options.video)
        #expect(!encoder.remuxes(try Clip.probe(source.path + "/narrow.mp4")))
        #expect(encoder.remuxes(try Clip.probe(source.path + "/low.mp4")))
        // The remuxed one is the source's video stream, byte for byte.
        #expect(try Clip.packetHash(output.path + "/videos/low.mp4") == Clip.packetHash(source.path + "/low.mp4"))
        // The posters are the video's own frame as shown, whatever the web version's size.
        let poster = try image(output, "thumbs/tall-360.jpg")
        #expect(poster.width == 360 && poster.height == 640)
    }

    @Test("a web version's settings key is the same as before the height rule, except for portrait clips taller than the limit")
    func settingsKeyByShape() {
        let settings = VideoSettings(maxHeight: 1080)
        func info(_ width: Int, _ height: Int, rotation: Int = 0) -> VideoInfo {
            VideoInfo(storedWidth: width, storedHeight: height, rotation: rotation, duration: 1, videoCodec: "h264",
                      pixelFormat: "yuv420p", audioCodec: nil, container: "mov,mp4,m4a,3gp,3g2,mj2")
        }
        #expect(settings.key(for: info(3840, 2160)) == settings.key)
        #expect(settings.key(for: info(720, 1280)) != settings.key)
        #expect(settings.key(for: info(1280, 720, rotation: 90)) != settings.key)
        #expect(settings.key(for: info(480, 854)) == settings.key)
        #expect(settings.key(for: info(1080, 1080)) == settings.key)
    }

    @Test("a phone's location is in no published byte, and the video's original is withheld while GPS is stripped")
    func locationIsNeverPublished() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        // QuickTime keeps the ISO 6709 string as text (MP4's `loci` would store numbers).
        try Clip.make(source.path + "/phone.mov", metadata: ["location=\(Self.location)", "creation_time=2024-05-01T10:20:30Z"])
        try Clip.make(source.path + "/hevc.mov", codec: "libx265", audio: false, metadata: ["location=\(Self.location)"])
        let sourceBytes = try Data(contentsOf: source.url.appendingPathComponent("phone.mov"))
        #expect(sourceBytes.range(of: Data(Self.location.utf8)) != nil, "the test clip carries the location")
        var options = options(source, output)
        options.downloadOriginals = true
        let report = try await build(options)
        #expect(report.photos == 2)
        let enumerator = FileManager.default.enumerator(atPath: output.path)!
        var files = 0
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output.path + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let data = try Data(contentsOf: output.url.appendingPathComponent(path))
            #expect(data.range(of: Data(Self.location.utf8)) == nil, "\(path) holds the location")
            #expect(data.range(of: Data("48.8577".utf8)) == nil, "\(path) holds the latitude")
            files += 1
        }
        #expect(files > 8)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/originals/phone.mov"))
        // The recording date is the item's date: UTC, with no zoned photo beside it to say the local time.
        let chunk = try String(contentsOfFile: output.path + "/frames/0.json", encoding: .utf8)
        #expect(chunk.contains("\"isoDate\":\"2024-05-01T10:20:30Z\""))
    }

    @Test("empty, truncated, garbage, sound-only and too long videos are skipped with the file and the reason")
    func badVideos() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/good.mp4", seconds: 3)
        let good = try Data(contentsOf: source.url.appendingPathComponent("good.mp4"))
        try source.write("truncated.mp4", good.prefix(3000))
        try source.write("empty.mov", Data())
        try source.write("garbage.mkv", Data("this is not a video at all".utf8))
        try Clip.ffmpeg(["-f", "lavfi", "-i", "sine", "-t", "1", "-c:a", "aac", source.path + "/sound.mp4"])
        try Clip.make(source.path + "/long.mp4", seconds: 4, audio: false)
        var options = options(source, output)
        options.video.maxDuration = 3.5
        let report = try await build(options)
        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.reason) })
        #expect(report.photos == 1)
        #expect(Set(reasons.keys) == ["truncated.mp4", "empty.mov", "garbage.mkv", "sound.mp4", "long.mp4"])
        #expect(reasons["empty.mov"] == "the file is empty")
        #expect(reasons["truncated.mp4"]?.hasPrefix("the video cannot be read") == true)
        // Not a container by its first bytes: never handed to ffprobe (which would guess a format).
        #expect(reasons["garbage.mkv"]?.hasPrefix("its content is not a video container cascade reads") == true)
        #expect(reasons["sound.mp4"] == "the file holds no video stream")
        #expect(reasons["long.mp4"] == "the video is 0:04 long, longer than video_max_duration (0:03)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/videos/good.mp4"))
    }

    @Test("a rotate tag or display matrix that is not a finite number in range is left out with a reason, never converted",
          arguments: [("nan", "tags", "rotate tag"), ("inf", "tags", "rotate tag"), ("1e300", "tags", "rotate tag"),
                      ("1e300", "side", "display matrix rotation")])
    func nonFiniteRotation(value: String, place: String, field: String) throws {
        let rotation = place == "tags" ? #""tags": {"rotate": "\#(value)"}"# : #""side_data_list": [{"rotation": \#(value)}]"#
        let json = #"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 160, "height": 96, \#(rotation)}], "format": {"duration": "1.0", "format_name": "matroska,webm"}}"#
        let info = try VideoProbe.parse(Data(json.utf8))
        #expect(info.rotation == 0)
        // A tag is shown as written; the matrix's angle is a JSON number, shown as Swift prints it.
        let shown = place == "tags" ? value : "\(Double(value)!)"
        #expect(info.fieldProblems == ["its \(field) (\(shown)) is not a number in -360…360; shown unturned"])
        let turned = #"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 160, "height": 96, "tags": {"rotate": "90"}}], "format": {"duration": "1.0"}}"#
        #expect(try VideoProbe.parse(Data(turned.utf8)).rotation == 270)
    }

    @Test("only a known container is a video, by its first bytes: a DASH manifest or ffconcat list named .mp4 is none")
    func containers() throws {
        #expect(VideoSniffer.container(Array("<?xml version=\"1.0\"?><MPD><BaseURL>/home/me/private.mov</BaseURL></MPD>".utf8)) == nil)
        #expect(VideoSniffer.container(Array("ffconcat version 1.0\nfile 'private.mov'\n".utf8)) == nil)
        #expect(VideoSniffer.container(Array("#EXTM3U\n#EXTINF:1,\n/home/me/private.mov\n".utf8)) == nil)
        #expect(VideoSniffer.container([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0]) == .quickTime)
        #expect(VideoSniffer.container([0x1A, 0x45, 0xDF, 0xA3, 0x9F]) == .matroska)
        var m2ts = [UInt8](repeating: 0, count: 400)
        for packet in 0..<3 { m2ts[4 + packet * 192] = 0x47 }
        #expect(VideoSniffer.container(m2ts) == .mpegTransportStream)
        #expect(VideoContainer.allCases.map(\.demuxer) == ["mov", "matroska", "avi", "mpeg", "mpegts", "asf"])
    }

    @Test("without ffmpeg, videos are left out with one line saying how many and how to install it")
    func withoutTools() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/a.mp4", seconds: 1)
        try Clip.make(source.path + "/b.webm", seconds: 1, codec: "libvpx-vp9")
        var image = try Image(width: 300, height: 200)
        image.fill(x: 0, y: 0, width: 300, height: 200, red: 200, green: 90, blue: 10)
        try source.write("photo.jpg", try image.encoded(as: .jpeg(quality: 85)))
        var options = options(source, output)
        options.videoTools = nil
        let events = Events()
        let report = try await build(options, events: events)
        #expect(report.photos == 1 && report.skipped.isEmpty)
        let warnings = events.list.withLock { $0 }.compactMap { event -> String? in
            if case .warning(let text) = event { return text } else { return nil }
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("2 videos were skipped: ffmpeg and ffprobe are not on the PATH (install ffmpeg") == true)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/videos"))
    }

    @Test("a build without ffmpeg after one with it keeps every published video, poster, motion clip and page as they were")
    func withoutToolsAfterABuildWithThem() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/a.mp4", seconds: 1)
        try Clip.make(source.path + "/b.webm", seconds: 1, codec: "libvpx-vp9")
        var image = try Image(width: 320, height: 180)
        image.fill(x: 0, y: 0, width: 320, height: 180, red: 30, green: 140, blue: 60)
        try source.write("IMG_1.jpg", try image.encoded(as: .jpeg(quality: 85)))
        try Clip.make(source.path + "/IMG_1.MOV", size: "320x180", seconds: 1)
        let withTools = options(source, output)
        let first = try await build(withTools)
        #expect(first.photos == 3 && first.videos == 2 && first.skipped.isEmpty)
        let site = try snapshot(output.path)
        #expect(site.keys.filter { $0.hasPrefix("videos/") }.sorted() == ["videos/a.mp4", "videos/b.mp4", "videos/img_1.live.mp4"])

        // ffmpeg gone, and a video added that was never made: only that one is left out.
        try Clip.make(source.path + "/c.mp4", size: "160x90", seconds: 1)
        var without = withTools
        without.videoTools = nil
        let events = Events()
        let second = try await build(without, events: events)
        #expect(second.photos == 3 && second.videos == 2 && second.skipped.isEmpty)
        #expect(second.photosMade == 0 && second.filesRemoved == 0 && second.pagesWritten == 0)
        let warnings = events.list.withLock { $0 }.compactMap { event -> String? in
            if case .warning(let text) = event { return text } else { return nil }
        }
        #expect(warnings.count == 1 && warnings.first?.hasPrefix("1 video was skipped: ffmpeg and ffprobe are not on the PATH") == true)
        #expect(try snapshot(output.path) == site)

        // ffmpeg back: only the new video is made; the kept ones keep their settings and files.
        let third = try await build(withTools)
        #expect(third.photos == 4 && third.videos == 3 && third.photosMade == 1)
        let after = try snapshot(output.path)
        for path in ["videos/a.mp4", "videos/b.mp4", "videos/img_1.live.mp4", "thumbs/a-200.jpg"] {
            #expect(after[path] != nil && after[path] == site[path], "\(path)")
        }
        #expect(after["videos/c.mp4"] != nil)
    }

    @Test("the progress events count a video made by its duration, and a kept one as one item")
    func progressByDuration() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/clip.webm", size: "320x180", seconds: 2, codec: "libvpx-vp9")
        var image = try Image(width: 300, height: 200)
        image.fill(x: 0, y: 0, width: 300, height: 200, red: 200, green: 90, blue: 10)
        try source.write("photo.jpg", try image.encoded(as: .jpeg(quality: 85)))
        let seconds = try Clip.probe(source.path + "/clip.webm").duration
        func lastProgress(_ events: Events) -> (done: Int, units: Double, total: Double)? {
            events.list.withLock { $0 }.compactMap { event -> (Int, Double, Double)? in
                if case .photoDone(let done, _, _, _, let units, let total) = event { return (done, units, total) } else { return nil }
            }.last
        }
        let first = Events()
        _ = try await build(options(source, output), events: first)
        let made = try #require(lastProgress(first))
        let expected = 2 + seconds * ProgressWeight.transcodeSecond * 320 * 180 / (1920 * 1080)
        #expect(made.done == 2 && abs(made.total - expected) < 1e-9 && made.units == made.total)
        // A caption added: the build is not up to date (it goes through every item) and keeps the video.
        try source.write("photo.txt", "A caption")
        let second = Events()
        _ = try await build(options(source, output), events: second)
        let kept = try #require(lastProgress(second))
        #expect(kept.done == 2 && kept.total == 2 && kept.units == 2)
    }

    @Test("a stuck tool is stopped at its time limit")
    func timeLimit() throws {
        let start = Date()
        let output = try ProcessRunner.run("/bin/sleep", ["30"], timeout: 0.5)
        #expect(output.timedOut && output.status == -1)
        #expect(Date().timeIntervalSince(start) < 5)
        let fine = try ProcessRunner.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: 10)
        #expect(!fine.timedOut && fine.status == 3)
        #expect(String(decoding: fine.standardOutput, as: UTF8.self) == "out\n" && fine.lastErrorLine == "err")
    }

    @Test("on Linux every program started is killed by the kernel when cascade ends (its parent-death signal is KILL)",
          .enabled(if: ProcessRunner.deathSignalWrapper != nil, "setpriv (util-linux) is needed"))
    func programsEndWithCascade() throws {
        // setpriv -d, itself started as every ffmpeg is, reports the signal it runs with.
        let output = try ProcessRunner.run(ProcessRunner.deathSignalWrapper!, ["-d"], timeout: 10)
        #expect(output.status == 0)
        #expect(String(decoding: output.standardOutput, as: UTF8.self).contains("Parent death signal: KILL"))
    }

    @Test("a stuck ffmpeg is stopped at the time limit: the video is skipped with a message, the build goes on")
    func stuckEncode() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        let tools = try TemporaryFolder()
        try Clip.make(source.path + "/stuck.webm", seconds: 1, codec: "libvpx-vp9")
        var image = try Image(width: 300, height: 200)
        image.fill(x: 0, y: 0, width: 300, height: 200, red: 200, green: 90, blue: 10)
        try source.write("photo.jpg", try image.encoded(as: .jpeg(quality: 85)))
        // Makes the poster, then hangs on the web version.
        try tools.write("ffmpeg", Data("#!/bin/sh\ncase \"$*\" in *image2pipe*) exec \(Clip.tools!.ffmpeg) \"$@\";; esac\nexec sleep 60\n".utf8))
        chmod(tools.path + "/ffmpeg", 0o755)
        var options = options(source, output)
        options.videoTools = MediaTools(ffmpeg: tools.path + "/ffmpeg", ffprobe: Clip.tools!.ffprobe)
        options.video.timeLimit = 1
        let start = Date()
        let report = try await build(options)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(report.photos == 1)
        #expect(report.skipped.map(\.description) == ["stuck.webm: ffmpeg was stopped after 1 s (it took too long)"])
        #expect(!FileManager.default.fileExists(atPath: output.path + "/videos/stuck.mp4"))
    }

    @Test("rebuilds: an unchanged video is not encoded again, a renamed one is moved, two swapped names follow their content",
          arguments: [1, 2])
    func rebuilds(jobs: Int) async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/a.webm", size: "320x240", seconds: 1, codec: "libvpx-vp9")
        try Clip.make(source.path + "/b.mp4", size: "480x270", seconds: 1, codec: "libx265", audio: false)
        try Clip.make(source.path + "/c.mp4", size: "200x200", seconds: 1)
        let options = options(source, output, jobs: jobs)
        let first = try await build(options)
        #expect(first.photosMade == 3)
        func inode(_ name: String) throws -> UInt64 {
            (try FileManager.default.attributesOfItem(atPath: output.path + "/videos/\(name).mp4")[.systemFileNumber] as? NSNumber)!.uint64Value
        }
        func size(_ name: String) throws -> (Int, Int) {
            let info = try Clip.probe(output.path + "/videos/\(name).mp4")
            return (info.displayWidth, info.displayHeight)
        }
        let inodes = try ["a", "b", "c"].map(inode)

        // Nothing changed: nothing is made, no video file is touched.
        let second = try await build(options)
        #expect(second.photosMade == 0 && second.photosReused == 3 && second.imagesWritten == 0)
        #expect(try ["a", "b", "c"].map(inode) == inodes)

        // a and b swap names, c is renamed: every web version is moved (the same files), none made.
        let fm = FileManager.default
        try fm.moveItem(atPath: source.path + "/a.webm", toPath: source.path + "/t.webm")
        try fm.moveItem(atPath: source.path + "/b.mp4", toPath: source.path + "/a.webm")
        try fm.moveItem(atPath: source.path + "/t.webm", toPath: source.path + "/b.mp4")
        try fm.moveItem(atPath: source.path + "/c.mp4", toPath: source.path + "/d.mp4")
        let third = try await build(options)
        #expect(third.photosMade == 0 && third.photosReused == 3)
        #expect(try size("a") == (480, 270) && size("b") == (320, 240) && size("d") == (200, 200))
        #expect(try inode("a") == inodes[1] && inode("b") == inodes[0] && inode("d") == inodes[2])
        #expect(!fm.fileExists(atPath: output.path + "/videos/c.mp4"))
        let poster = try image(output, "thumbs/a-400.jpg")
        #expect(poster.width == 400 && poster.height == 225)

        // Another quality: the web versions are made again, the posters are kept.
        var lower = options
        lower.video.quality = 40
        let fourth = try await build(lower)
        #expect(fourth.photosMade == 3 && fourth.imagesWritten == 3)
        #expect(try inode("a") != inodes[1])
    }

    @Test("a Live Photo (a JPEG or HEIC and a short MOV of the same stem) is one item with its motion clip, kept and moved like a video")
    func livePhotos() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        var image = try Image(width: 400, height: 300)
        image.fill(x: 0, y: 0, width: 400, height: 300, red: 30, green: 140, blue: 60)
        let jpeg = try image.encoded(as: .jpeg(quality: 85))
        try source.write("IMG_0001.JPG", jpeg)
        try Clip.make(source.path + "/IMG_0001.MOV", size: "400x300", seconds: 2, codec: "libx265")
        // A long MOV beside a photo of the same stem is a video of its own.
        image.fill(x: 0, y: 0, width: 400, height: 300, red: 140, green: 40, blue: 60)
        try source.write("IMG_0002.jpg", try image.encoded(as: .jpeg(quality: 85)))
        try Clip.make(source.path + "/IMG_0002.mov", size: "320x240", seconds: 6, audio: false)
        let options = options(source, output)
        let first = try await build(options)
        #expect(first.photos == 3 && first.videos == 1 && first.skipped.isEmpty)
        let chunk = try String(contentsOfFile: output.path + "/frames/0.json", encoding: .utf8)
        #expect(chunk.contains("\"live\":{\"url\":\"videos/img_0001.live.mp4\"}"))
        #expect(chunk.components(separatedBy: "\"live\"").count == 2)
        #expect(chunk.components(separatedBy: "\"video\"").count == 2)
        let album = try String(contentsOfFile: output.path + "/index.html", encoding: .utf8)
        #expect(album.components(separatedBy: "<a class=\"tile").count == 4)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/videos/img_0001.mp4"))
        // The motion clip plays muted: H.264, no sound.
        let clip = try Clip.probe(output.path + "/videos/img_0001.live.mp4")
        #expect(clip.videoCodec == "h264" && clip.audioCodec == nil && clip.displayWidth == 400)
        let page = try String(contentsOfFile: output.path + "/img_0001.html", encoding: .utf8)
        #expect(page.contains("<a href=\"videos/img_0001.live.mp4\">"))
        #expect(page.contains("<img class=\"photo-image\""))

        // Nothing changed: the clip is not made again.
        let inode = { (path: String) throws -> UInt64 in
            (try FileManager.default.attributesOfItem(atPath: output.path + "/" + path)[.systemFileNumber] as? NSNumber)!.uint64Value
        }
        let before = try inode("videos/img_0001.live.mp4")
        let second = try await build(options)
        #expect(second.photosMade == 0 && second.imagesWritten == 0)
        #expect(try inode("videos/img_0001.live.mp4") == before)
        // The pair renamed: the clip is moved with the photo's images.
        try FileManager.default.moveItem(atPath: source.path + "/IMG_0001.JPG", toPath: source.path + "/Beach.jpg")
        try FileManager.default.moveItem(atPath: source.path + "/IMG_0001.MOV", toPath: source.path + "/Beach.mov")
        let third = try await build(options)
        #expect(third.photosMade == 0 && third.photos == 3)
        #expect(try inode("videos/beach.live.mp4") == before)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/videos/img_0001.live.mp4"))
    }

    @Test("a rebuild does not ask ffprobe again about an unchanged video or motion clip")
    func probesAreKept() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        let tools = try TemporaryFolder()
        try Clip.make(source.path + "/a.mp4", seconds: 1)
        try Clip.make(source.path + "/b.webm", seconds: 1, codec: "libvpx-vp9")
        var image = try Image(width: 320, height: 180)
        image.fill(x: 0, y: 0, width: 320, height: 180, red: 30, green: 140, blue: 60)
        try source.write("live.jpg", try image.encoded(as: .jpeg(quality: 85)))
        try Clip.make(source.path + "/live.mov", seconds: 1)
        let log = tools.path + "/calls"
        try tools.write("ffprobe", Data("#!/bin/sh\necho \"$@\" >> \(log)\nexec \(Clip.tools!.ffprobe) \"$@\"\n".utf8))
        chmod(tools.path + "/ffprobe", 0o755)
        var options = options(source, output)
        options.videoTools = MediaTools(ffmpeg: Clip.tools!.ffmpeg, ffprobe: tools.path + "/ffprobe")
        func calls() -> Int {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        let first = try await build(options)
        #expect(first.photos == 3)
        #expect(calls() == 3)
        let second = try await build(options)
        #expect(second.photos == 3 && second.photosMade == 0)
        #expect(calls() == 3)
        // A changed video is asked about again.
        try Clip.make(source.path + "/a.mp4", size: "160x90", seconds: 1)
        let third = try await build(options)
        #expect(calls() == 4 && third.photosMade == 1)
        #expect(try Clip.probe(output.path + "/videos/a.mp4").displayWidth == 160)
    }

    @Test("a motion clip added beside a published photo makes it a Live Photo on the next build, and removed makes it still again")
    func motionAddedLater() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        var image = try Image(width: 320, height: 240)
        image.fill(x: 0, y: 0, width: 320, height: 240, red: 30, green: 140, blue: 60)
        try source.write("IMG_7.jpg", try image.encoded(as: .jpeg(quality: 85)))
        var options = options(source, output)
        options.verifyAlbumKeys = true
        _ = try await build(options)
        let chunk = { try String(contentsOfFile: output.path + "/frames/0.json", encoding: .utf8) }
        #expect(try !chunk().contains("\"live\""))
        try Clip.make(source.path + "/IMG_7.mov", size: "320x240", seconds: 1)
        let second = try await build(options)
        #expect(second.photos == 1)
        #expect(try chunk().contains("\"live\":{\"url\":\"videos/img_7.live.mp4\"}"))
        try FileManager.default.removeItem(atPath: source.path + "/IMG_7.mov")
        let third = try await build(options)
        #expect(third.photos == 1 && third.filesRemoved >= 1)
        #expect(try !chunk().contains("\"live\""))
        #expect(!FileManager.default.fileExists(atPath: output.path + "/videos/img_7.live.mp4"))
    }
}
