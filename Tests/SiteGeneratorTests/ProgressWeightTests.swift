import Gallery
import Imaging
import Testing
import Video

@testable import SiteGenerator

/// The progress bar counts a video by its duration: each item weighs one photo's images, plus
/// its encode when its web version or motion clip is made.
@Suite("Progress weights")
struct ProgressWeightTests {
    let encoder = VideoEncoder(tools: MediaTools(ffmpeg: "/nonexistent/ffmpeg", ffprobe: "/nonexistent/ffprobe"), settings: VideoSettings())

    func info(_ width: Int, _ height: Int, seconds: Double, codec: String = "hevc", container: String = "mov,mp4,m4a,3gp,3g2,mj2") -> VideoInfo {
        VideoInfo(storedWidth: width, storedHeight: height, rotation: 0, duration: seconds, videoCodec: codec,
                  pixelFormat: "yuv420p", audioCodec: "aac", container: container)
    }

    func item(_ name: String, video: VideoInfo? = nil, motion: VideoInfo? = nil) -> GalleryPhoto {
        let shown = video ?? motion
        var photo = GalleryPhoto(
            sourcePath: "/photos/" + name, relativePath: name, fileName: name, fileSize: 1000, modificationTime: 0,
            info: ImageInfo(format: video == nil ? .jpeg : .png, pixelWidth: shown?.displayWidth ?? 4000, pixelHeight: shown?.displayHeight ?? 3000,
                            orientation: .up, displayWidth: shown?.displayWidth ?? 4000, displayHeight: shown?.displayHeight ?? 3000,
                            metadata: PhotoMetadata()))
        photo.video = video
        if let motion {
            photo.motion = MotionClip(sourcePath: "/photos/clip.mov", relativePath: "clip.mov",
                                      identity: FileIdentity(size: 1, modificationTime: 0, changeTime: 0, inode: 1), video: motion)
        }
        return photo
    }

    @Test("a photo weighs one unit; a video made weighs its poster plus its seconds, by the pixels a transcode makes")
    func weights() {
        #expect(ProgressWeight.units(of: item("a.jpg"), job: nil, encoder: encoder) == 1)
        // A 30-second 4K HEVC clip is transcoded to 1920×1080: 30 s × 30 units.
        let uhd = item("b.mov", video: info(3840, 2160, seconds: 30))
        #expect(ProgressWeight.units(of: uhd, job: VideoJob(decision: .make, path: "videos/b.mp4", settings: ""), encoder: encoder) == 901)
        // Half the height, a quarter of the pixels: a quarter of the weight.
        let small = item("c.mov", video: info(960, 540, seconds: 30))
        #expect(ProgressWeight.units(of: small, job: VideoJob(decision: .make, path: "videos/c.mp4", settings: ""), encoder: encoder) == 226)
        // Already H.264/AAC in MP4 within the limit: remuxed, half a unit a second.
        let ready = item("d.mp4", video: info(1280, 720, seconds: 30, codec: "h264"))
        #expect(ProgressWeight.units(of: ready, job: VideoJob(decision: .make, path: "videos/d.mp4", settings: ""), encoder: encoder) == 16)
        // Kept or moved, or without ffmpeg: one item like a photo.
        #expect(ProgressWeight.units(of: uhd, job: VideoJob(decision: .keep, path: "videos/b.mp4", settings: ""), encoder: encoder) == 1)
        #expect(ProgressWeight.units(of: uhd, job: VideoJob(decision: .move(staged: "/t"), path: "videos/b.mp4", settings: ""), encoder: encoder) == 1)
        #expect(ProgressWeight.units(of: uhd, job: VideoJob(decision: .make, path: "videos/b.mp4", settings: ""), encoder: nil) == 1)
        // A Live Photo's motion clip made: the photo plus its clip's seconds.
        let live = item("e.jpg", motion: info(1920, 1080, seconds: 2))
        #expect(ProgressWeight.units(of: live, job: VideoJob(decision: .make, path: "videos/e.live.mp4", settings: ""), encoder: encoder) == 61)
        // A damaged duration weighs nothing more.
        #expect(ProgressWeight.units(madeVideoOf: .nan, remux: false, width: 1920, height: 1080) == 1)
    }

    @Test("the bar's share and ETA go by the work: ten photos done before a 30-second transcode are about 1% of it")
    func fractionAndETA() {
        let total = 10 + ProgressWeight.units(madeVideoOf: 30, remux: false, width: 1920, height: 1080)
        let share = ProgressWeight.fraction(done: 10, total: 11, units: 10, totalUnits: total)
        #expect(share > 0.01 && share < 0.012)
        // By items it would have been 10 of 11.
        #expect(ProgressWeight.fraction(done: 10, total: 11, units: 0, totalUnits: 0) == 10.0 / 11.0)
        #expect(ProgressWeight.fraction(done: 11, total: 11, units: total, totalUnits: total) == 1)
        // 5 s for a quarter of the work, from nothing done: 15 s left.
        #expect(ProgressWeight.pace(elapsed: 5, since: (0, 0), done: 1, fraction: 0.25)?.remaining == 15)
        #expect(ProgressWeight.pace(elapsed: 5, since: (0, 0), done: 1, fraction: 0)?.remaining == .some(nil))
    }

    @Test("the rate and ETA start at the first finished item: planning a large library before it is not slow work")
    func paceFromTheFirstItem() throws {
        // 100,000 photos; the first was reported 2.5 s into the stage (planning), then 50,000
        // more in the next second.
        let start = (done: 1, fraction: 0.00001)
        #expect(ProgressWeight.pace(elapsed: 0.5, since: start, done: 20_000, fraction: 0.2) == nil)  // under a second
        let pace = try #require(ProgressWeight.pace(elapsed: 1.0, since: start, done: 50_001, fraction: 0.50001))
        #expect(pace.rate == 50_000)
        // Half the work in 1 s: 1 s left, not the 2.5 s the planning time would add.
        #expect(abs(try #require(pace.remaining) - 1.0) < 0.001)
        // Nothing more done since the start: no figure.
        #expect(ProgressWeight.pace(elapsed: 6.5, since: start, done: 1, fraction: 0.00001) == nil)
    }
}
