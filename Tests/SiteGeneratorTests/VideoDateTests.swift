import Foundation
import GalleryConfig
import Imaging
import Testing
import TestSupport

@testable import Gallery
@testable import Catalog
@testable import SiteGenerator
@testable import Video

/// A video's recording date and zone, from what ffprobe reports of the keys phones write.
@Suite("Video dates")
struct VideoDateTests {
    func info(tags: String) throws -> VideoInfo {
        let json = #"{"streams": [{"codec_type": "video", "codec_name": "h264", "width": 160, "height": 96}], "format": {"duration": "1.0", "format_name": "mov,mp4", "tags": {\#(tags)}}}"#
        return try VideoProbe.parse(Data(json.utf8))
    }

    @Test("an iPhone's (and Pixel's) QuickTime creation date wins over creation_time, with its zone")
    func quickTimeCreationDate() throws {
        let iPhone = try info(tags: #""creation_time": "2024-08-01T01:15:00.000000Z", "com.apple.quicktime.creationdate": "2024-07-31T21:15:00-0400""#)
        #expect(iPhone.creationDate == "2024-07-31T21:15:00-0400")
        let date = try #require(iPhone.creationDate.flatMap(GalleryDate.init))
        #expect(date.description == "2024-07-31 21:15:00" && date.offset == -240)
        #expect(iPhone.probeVersion == VideoProbe.version)
    }

    @Test("creation_time alone is UTC: kept as such, with or without its Z; muxers' zero dates are none")
    func creationTime() throws {
        #expect(try info(tags: #""creation_time": "2024-08-01T01:00:00.000000Z""#).creationDate == "2024-08-01T01:00:00.000000Z")
        #expect(try info(tags: #""creation_time": "2024-08-01T01:00:00""#).creationDate == "2024-08-01T01:00:00Z")
        #expect(try info(tags: #""creation_time": "1970-01-01T00:00:00.000000Z""#).creationDate == nil)
        #expect(try info(tags: #""creation_time": "1904-01-01T00:00:00.000000Z""#).creationDate == nil)
        #expect(try info(tags: #""creation_time": "2024-08-01T01:00:00Z", "com.apple.quicktime.creationdate": "garbage""#)
            .creationDate == "2024-08-01T01:00:00Z")
    }

    @Test("other Android phones' clips (Samsung's location and com.android.version, com.android.capture.fps) are dated by creation_time, as UTC")
    func androidClips() throws {
        // The format tags ffprobe shows of a Galaxy clip (mvhd's time, ISO 6709 location).
        let samsung = try info(tags: #""major_brand": "mp42", "minor_version": "0", "compatible_brands": "isommp42", "creation_time": "2023-12-08T10:40:47.000000Z", "location": "+37.5665+126.9780/", "location-eng": "+37.5665+126.9780/", "com.android.version": "12""#)
        #expect(samsung.creationDate == "2023-12-08T10:40:47.000000Z" && samsung.hasLocation)
        #expect(samsung.creationDate.flatMap(GalleryDate.init)?.offset == 0)
        // A Pixel's (and others') capture rate is no date; older ffprobes print the time with a blank, no Z: UTC all the same.
        let pixel = try info(tags: #""major_brand": "isom", "creation_time": "2026-08-16 10:39:22", "com.android.capture.fps": "30.000000", "com.android.version": "14""#)
        #expect(pixel.creationDate == "2026-08-16 10:39:22Z")
        let date = try #require(pixel.creationDate.flatMap(GalleryDate.init))
        #expect(date.offset == 0 && date.description == "2026-08-16 10:39:22")
    }

    func item(_ name: String, _ date: String?, video: Bool = false) -> GalleryPhoto {
        var photo = GalleryPhoto(sourcePath: "/x/" + name, relativePath: name, fileName: name, fileSize: 1, modificationTime: 0,
                                 info: ImageInfo(format: .jpeg, pixelWidth: 10, pixelHeight: 10, orientation: .up,
                                                 displayWidth: 10, displayHeight: 10, metadata: PhotoMetadata(dateTaken: date)))
        if video {
            photo.video = VideoInfo(storedWidth: 10, storedHeight: 10, rotation: 0, duration: 1, videoCodec: "h264",
                                    pixelFormat: "yuv420p", audioCodec: nil, container: "mov,mp4", creationDate: date)
        }
        return photo
    }

    @Test("a UTC time takes the zone of the album's zoned item nearest in time; none: it stays UTC")
    func localZones() throws {
        var photos = [
            item("ny.jpg", "2024:07:31 20:30:00-04:00"),
            item("paris.jpg", "2024:08:05 12:00:00+02:00"),
            item("clip.mp4", "2024-08-01T01:15:00Z", video: true),
            item("later.mp4", "2024-08-05T09:00:00Z", video: true),
            item("floating.jpg", "2024:07:31 21:00:00"),
        ]
        GalleryScanner.assignLocalZones(&photos)
        #expect(photos[2].date?.iso8601 == "2024-07-31T21:15:00-04:00")
        #expect(photos[3].date?.iso8601 == "2024-08-05T11:00:00+02:00")
        // The floating photo is ordered in New York's zone (nearest in wall time), shown as it is.
        #expect(photos[4].localZone == -240 && photos[4].date?.offset == nil && photos[4].date?.iso8601 == "2024-07-31T21:00:00")
        var alone = [item("clip.mp4", "2024-08-01T01:15:00Z", video: true), item("floating.jpg", "2024:07:31 21:00:00")]
        GalleryScanner.assignLocalZones(&alone)
        #expect(alone[0].date?.iso8601 == "2024-08-01T01:15:00Z")
    }

    @Test("a camera's floating dates interleave with a phone's zoned ones as the clocks showed them")
    func cameraBesidePhone() throws {
        // In New York: the phone writes its zone, the camera (set to local time) does not.
        var photos = [
            item("phone-1.jpg", "2024:07:31 20:30:00-04:00"),
            item("camera-1.jpg", "2024:07:31 21:00:00"),
            item("phone-2.jpg", "2024:07:31 21:30:00-04:00"),
            item("camera-2.jpg", "2024:07:31 22:00:00"),
        ].reversed().map { $0 }
        GalleryScanner.assignLocalZones(&photos)
        let names = { (sort: AlbumSortOrder) in GalleryScanner.sorted(photos, sort, name: \.fileName, date: \.date).map(\.fileName) }
        #expect(names(.date) == ["phone-1.jpg", "camera-1.jpg", "phone-2.jpg", "camera-2.jpg"])
        #expect(names(.dateDescending) == ["camera-2.jpg", "phone-2.jpg", "camera-1.jpg", "phone-1.jpg"])
        // Without the zone, the camera's 21:00 would be taken as UTC, hours before the phone's 20:30 in New York.
        #expect(try #require(GalleryDate("2024:07:31 21:00:00")) < #require(GalleryDate("2024:07:31 20:30:00-04:00")))
    }

    @Test("the zone given is the nearest zoned item's, the earlier of two as near, in albums of every mix", arguments: 0..<12)
    func nearestZone(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) + 100)
        // Times on a few hours' grid, so that ties of distance happen; zones that cross them.
        func wall() -> String { String(format: "2024:08:01 %02d:%02d:00", Int(random.next() % 6) + 10, Int(random.next() % 4) * 15) }
        var photos: [GalleryPhoto] = (0..<60).map { number in
            let zone = [-240, 0, 60, 120, 330][Int(random.next() % 5)]
            switch random.next() % 3 {
            case 0: return item("\(number)-zoned.jpg", wall() + String(format: "%@%02d:%02d", zone < 0 ? "-" : "+", abs(zone) / 60, abs(zone) % 60))
            case 1: return item("\(number)-utc.mp4", String(format: "2024-08-01T%02d:%02d:00Z", Int(random.next() % 8) + 8, Int(random.next() % 4) * 15), video: true)
            default: return item("\(number)-floating.jpg", wall())
            }
        }
        let own = photos.map(\.date)
        GalleryScanner.assignLocalZones(&photos)
        // By every zoned item, as the rule says.
        let zoned = own.compactMap { date -> GalleryDate? in date.flatMap { $0.offset != nil && !$0.isUniversal ? $0 : nil } }
        for (photo, date) in zip(photos, own) {
            guard let date, date.offset == nil || date.isUniversal, !zoned.isEmpty else {
                #expect(photo.localZone == nil)
                continue
            }
            let target = date.isUniversal ? date.instant! : date.wallTime!
            let expected = zoned.min { a, b in
                let (x, y) = date.isUniversal ? (a.instant!, b.instant!) : (a.wallTime!, b.wallTime!)
                return (abs(x - target), a.instant!) < (abs(y - target), b.instant!)
            }!.offset
            #expect(photo.localZone == expected, "\(photo.fileName)")
        }
    }

    @Test("a sidecar's date falls through when unreadable, and takes the file's zone when it gives the same wall time")
    func sidecarDates() throws {
        var photo = item("a.jpg", "2024:07:31 20:30:00-04:00")
        photo.sidecar = XMPMetadata(dateTaken: "2024-07-31T20:30:00")
        #expect(photo.date?.iso8601 == "2024-07-31T20:30:00-04:00")
        photo.sidecar = XMPMetadata(dateTaken: "2024-07-31T22:00:00")
        #expect(photo.date?.iso8601 == "2024-07-31T22:00:00")
        photo.sidecar = XMPMetadata(dateTaken: "2024-02-30")
        #expect(photo.date?.iso8601 == "2024-07-31T20:30:00-04:00")
    }

    @Test("a video probed by an older VideoProbe (its date read without its zone) is probed again",
          .enabled(if: Clip.tools != nil, "ffmpeg and ffprobe are needed"))
    func olderProbeIsMadeAgain() async throws {
        let source = try TemporaryFolder()
        let output = try TemporaryFolder()
        try Clip.make(source.path + "/clip.mov", seconds: 1, audio: false, metadata: ["creation_time=2024-05-01T10:20:30Z"])
        var options = SiteOptions(sourceDirectory: source.path, outputDirectory: output.path, title: "T", jobs: 2)
        options.tileWidths = [200]
        options.photoWidths = [400]
        options.catalogPath = output.path + "-catalog.sqlite"
        _ = try await SiteBuilder(options: options).build()
        #expect(try output.read("clip.html").contains("datetime=\"2024-05-01T10:20:30Z\""))
        // The record as the version before wrote it: EXIF-style date, no version.
        let catalog = try Catalog(path: options.catalogPath!) { Issue.record("\($0)") }
        let old = try catalog.snapshot()
        var manifest = old
        var record = try #require(manifest.photos["clip.mov"])
        record.video?.probe?.creationDate = "2024:05:01 10:20:30"
        record.video?.probe?.probeVersion = nil
        manifest.photos["clip.mov"] = record
        try catalog.save(manifest, replacing: old)
        _ = try await SiteBuilder(options: options).build()
        #expect(try output.read("clip.html").contains("datetime=\"2024-05-01T10:20:30Z\""))
        let probe = try Catalog(path: options.catalogPath!) { Issue.record("\($0)") }.snapshot().photos["clip.mov"]?.video?.probe
        #expect(probe?.probeVersion == VideoProbe.version && probe?.creationDate?.hasPrefix("2024-05-01T10:20:30") == true && probe?.creationDate?.hasSuffix("Z") == true)
    }
}
