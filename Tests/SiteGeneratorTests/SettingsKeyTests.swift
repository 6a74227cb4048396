import Catalog
import GalleryConfig
import Imaging
import Testing
import Video

@testable import SiteGenerator

/// The typed settings keys render exactly the text earlier builds stored in catalog records,
/// so that a site built before them keeps every image and web version.
@Suite("Settings keys")
struct SettingsKeyTests {
    @Test("an image settings key renders the text earlier builds stored, with the colour for a wide-gamut photo's")
    func imageKeyRendering() {
        // (Copied from a catalog written by the build before the typed keys.)
        let options = SiteOptions(
            configuration: try! SiteConfiguration.parse("formats: [jpeg, webp]"), sourceDirectory: "/s", outputDirectory: "/o", title: "T")
        #expect(options.allImageFormats.map { options.imageSettingsKey(for: $0).stored } == [
            "imaging=4;widths=400,800,1600,2400;format=jpeg82;gps=strip",
            "imaging=4;widths=400,800,1600,2400;format=webp82;gps=strip",
        ])
        let key = ImageSettingsKey(widths: [320, 640], format: .avif(quality: 60), keepGPS: true)
        #expect(key.stored == "imaging=4;widths=320,640;format=avif60;gps=keep")
        #expect("\(key)" == key.stored)
        #expect(ImageSettingsKey(widths: [100], format: .png, keepGPS: false).stored == "imaging=4;widths=100;format=png;gps=strip")
        #expect(key.wide(.wide).stored == "imaging=4;widths=320,640;format=avif60;gps=keep;colour=wide")
        #expect(key.wide(.sRGB).stored == "imaging=4;widths=320,640;format=avif60;gps=keep;colour=srgb")
        // A colour replaces the colour a key has: it is never named twice.
        #expect(key.wide(.sRGB).wide(.wide) == key.wide(.wide))
        #expect(key.wide(.wide) != key)
    }

    @Test("a video's and a motion clip's keys render the text earlier builds stored")
    func clipKeyRendering() {
        let settings = VideoSettings(maxHeight: 1080, quality: 75)
        let plain = "video=1;mp4;h264;crf=24;maxh=1080;aac=128k;metadata=strip"
        let wide = VideoInfo(storedWidth: 1920, storedHeight: 1080, rotation: 0, duration: 1, videoCodec: "h264",
                             pixelFormat: "yuv420p", audioCodec: nil, container: "mov,mp4,m4a,3gp,3g2,mj2")
        let tall = VideoInfo(storedWidth: 1920, storedHeight: 1080, rotation: 90, duration: 1, videoCodec: "h264",
                             pixelFormat: "yuv420p", audioCodec: nil, container: "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(settings.key.stored == plain)
        #expect(ClipSettingsKey.video(settings.key(for: wide)).stored == plain)
        #expect(ClipSettingsKey.video(settings.key(for: tall)).stored == plain + ";maxh=shown")
        #expect(ClipSettingsKey.live(settings.key(for: wide)).stored == "live;" + plain)
        // Without ffmpeg.
        #expect(ClipSettingsKey.video(nil).stored == "")
        #expect(ClipSettingsKey.live(nil).stored == "live;")
    }

    @Test("a record an earlier build wrote (a wide-gamut photo's too) is kept by the typed planner")
    func earlierRecordsAreKept() {
        let jpeg = "imaging=4;widths=100,200;format=jpeg80;gps=strip"
        let webp = "imaging=4;widths=100,200;format=webp80;gps=strip"
        func record(_ slug: String, colour: String) -> BuildManifest.PhotoRecord {
            BuildManifest.PhotoRecord(
                size: 1, modificationTime: 0, contentHash: "h-\(slug)", settings: jpeg + colour, width: 200, height: 100, color: "#000000",
                renditions: [.init(width: 100, height: 50, path: "a/\(slug)-100.jpg"), .init(width: 200, height: 100, path: "a/\(slug)-200.jpg")],
                sources: [.init(type: "image/webp", settings: webp + colour, paths: ["a/\(slug)-100.webp", "a/\(slug)-200.webp"])])
        }
        let records: PhotoRecords = ["A/x.jpg": record("x", colour: ""), "A/w.jpg": record("w", colour: ";colour=wide")]
        let keys = [ImageSettingsKey(widths: [100, 200], format: .jpeg(quality: 80), keepGPS: false),
                    ImageSettingsKey(widths: [100, 200], format: .webp(quality: 80), keepGPS: false)]
        let planner = ReusePlanner(previous: records, settings: keys, colour: .wide, exists: { _ in true })
        for slug in ["x", "w"] {
            let wanted = [["a/\(slug)-100.jpg", "a/\(slug)-200.jpg"], ["a/\(slug)-100.webp", "a/\(slug)-200.webp"]]
            #expect(planner.decide(path: "A/\(slug).jpg", hash: "h-\(slug)", widths: [100, 200], wanted: wanted) == .keep(formats: [0, 1]), "\(slug)")
        }
        // The wide-gamut photo's images were made with `colour: wide`: switching it remakes them alone.
        let srgb = ReusePlanner(previous: records, settings: keys, colour: .sRGB, exists: { _ in true })
        #expect(srgb.decide(path: "A/w.jpg", hash: "h-w", widths: [100, 200], wanted: [["a/w-100.jpg", "a/w-200.jpg"], ["a/w-100.webp", "a/w-200.webp"]]) == .make)
        #expect(srgb.decide(path: "A/x.jpg", hash: "h-x", widths: [100, 200], wanted: [["a/x-100.jpg", "a/x-200.jpg"], ["a/x-100.webp", "a/x-200.webp"]]) == .keep(formats: [0, 1]))
    }

    @Test("a store entry's key is the one earlier builds named it by")
    func storeKey() {
        let options = SiteOptions(sourceDirectory: "/s", outputDirectory: "/o", title: "T")
        let recipe = ImageRecipe(options: options)
        // (Every entry's key names the colour setting: see `ImageRecipe.storeKey`.)
        let texts = ["imaging=4;widths=400,800,1600,2400;format=jpeg82;gps=strip;colour=srgb"]
        #expect(recipe.storeKey(hash: "abc", size: 12) == RenditionStore.key(hash: "abc", size: 12, settings: texts))
    }
}
