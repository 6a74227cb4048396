import GalleryConfig
import Foundation
import TestSupport
import Testing

/// Dates as photo tools write them beyond a full EXIF date: partial dates (Lightroom and Bridge
/// write `photoshop:DateCreated="1987-07"` for a slide scan) and dates with a time zone.
@Suite("Partial and zoned dates")
struct PartialAndZonedDateTests {
    @Test("a year or a year-month is a date of that precision", arguments: [
        ("1987", "1987", GalleryDate.Precision.year),
        ("1987-07", "1987-07", .month),
        ("1987:07:00 00:00:00", "1987-07", .month),
        ("1987:00:00 00:00:00", "1987", .year),
        ("2024-05-06", "2024-05-06", .day),
        ("2024-05-06T18:30:15-04:00", "2024-05-06 18:30:15", .time),
    ] as [(String, String, GalleryDate.Precision)])
    func partial(_ text: String, _ description: String, _ precision: GalleryDate.Precision) throws {
        let date = try #require(GalleryDate(text))
        #expect(date.description == description)
        #expect(date.precision == precision)
    }

    @Test("nonsense stays nonsense", arguments: ["1987-13", "198", "19870", "1987-7", "0000", "0000-00", "1987-07-32"])
    func refused(_ text: String) {
        #expect(GalleryDate(text) == nil)
    }

    @Test("a partial date sorts at the start of its period")
    func partialOrder() throws {
        let year = try #require(GalleryDate("1987"))
        let july = try #require(GalleryDate("1987-07"))
        let julyFirst = try #require(GalleryDate("1987-07-01"))
        let june = try #require(GalleryDate("1987:06:30 23:59:59"))
        #expect(year < june && june < july && july < julyFirst)
        #expect(year < GalleryDate("1987-01-01")!)
    }

    @Test("date_format drops what a partial date does not know, with the text that goes with it")
    func partialFormat() throws {
        let july = try #require(GalleryDate("1987-07"))
        let year = try #require(GalleryDate("1987"))
        #expect(DateFormat.default.string(july) == "July 1987")
        #expect(DateFormat.default.string(year) == "1987")
        #expect(DateFormat(pattern: "YYYY-MM-DD").string(july) == "1987-07")
        #expect(DateFormat(pattern: "DD.MM.YYYY").string(july) == "07.1987")
        #expect(DateFormat(pattern: "MMM D, YYYY · H:mm").string(july) == "Jul 1987")
        #expect(DateFormat(pattern: "D MMM").string(year) == "1987")
        #expect(DateFormat(pattern: "D MMM").string(july) == "Jul")
    }

    @Test("grouping puts a partial date in its own section before the finer ones of its period")
    func partialGrouping() throws {
        let july = try #require(GalleryDate("1987-07"))
        let year = try #require(GalleryDate("1987"))
        #expect(PhotoGrouping.month.label(PhotoGrouping.month.key(july)) == "July 1987")
        #expect(PhotoGrouping.year.label(PhotoGrouping.year.key(july)) == "1987")
        #expect(PhotoGrouping.month.label(PhotoGrouping.month.key(year)) == "1987")
        #expect(PhotoGrouping.day.label(PhotoGrouping.day.key(july)) == "July 1987")
        #expect(PhotoGrouping.month.key(year)! < PhotoGrouping.month.key(GalleryDate("1987-01-05"))!)
    }

    @Test("zones are read and kept", arguments: [
        ("2024:07:31 20:30:00-04:00", -240, false, "2024-07-31T20:30:00-04:00"),
        ("2024-07-31T21:15:00-0400", -240, false, "2024-07-31T21:15:00-04:00"),
        ("2024-07-31T21:15:00.123+05:30", 330, false, "2024-07-31T21:15:00+05:30"),
        ("2024-08-01T01:15:00.000000Z", 0, true, "2024-08-01T01:15:00Z"),
        ("2024-08-01 01:15:00 +02", 120, false, "2024-08-01T01:15:00+02:00"),
    ] as [(String, Int, Bool, String)])
    func zones(_ text: String, _ offset: Int, _ universal: Bool, _ iso: String) throws {
        let date = try #require(GalleryDate(text))
        #expect(date.offset == offset)
        #expect(date.isUniversal == universal)
        #expect(date.iso8601 == iso)
    }

    @Test("a floating date has no zone, and its ISO form none either")
    func floating() throws {
        let date = try #require(GalleryDate("2024:07:31 20:30:00"))
        #expect(date.offset == nil)
        #expect(date.iso8601 == "2024-07-31T20:30:00")
        #expect(GalleryDate("2024:07:31 20:30:00+99:00")?.offset == nil)
    }

    @Test("dates with zones order by instant; a floating one in the zone assumed for it, else as UTC")
    func zonedOrder() throws {
        // 20:30 in New York is 00:30 UTC the next day; 02:00 in Paris is 00:00 UTC.
        let newYork = try #require(GalleryDate("2024-07-31T20:30:00-04:00"))
        let paris = try #require(GalleryDate("2024-08-01T02:00:00+02:00"))
        #expect(paris < newYork)
        let floating = try #require(GalleryDate("2024:07:31 21:00:00"))
        // As UTC, 21:00 comes before both; in New York's zone it is 01:00 UTC, after both.
        #expect(floating < paris && floating < newYork)
        let inNewYork = floating.assumingZone(-240)
        #expect(paris < inNewYork && newYork < inNewYork)
        #expect(inNewYork.description == floating.description && inNewYork.iso8601 == floating.iso8601)
        #expect(inNewYork != floating)
        #expect(newYork != GalleryDate("2024-07-31T20:30:00")!)
        // A zone is assumed only for a floating date with a time.
        #expect(newYork.assumingZone(60) == newYork)
        #expect(GalleryDate("2024-07-31")!.assumingZone(60) == GalleryDate("2024-07-31")!)
    }

    @Test("the order is total: transitive and one result whatever order a sort is given", arguments: 0..<20)
    func totalOrder(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) + 1)
        // Floating, zoned, UTC-alone and assumed-zone dates, partial ones too, all within a day
        // and a half so that the zones make them cross.
        let dates: [GalleryDate] = (0..<40).map { _ in
            let hour = Int(random.next() % 24), minute = Int(random.next() % 4) * 15
            let day = 31 + Int(random.next() % 2)
            let wall = day == 31 ? String(format: "2024-07-31T%02d:%02d:00", hour, minute) : String(format: "2024-08-01T%02d:%02d:00", hour, minute)
            let zone = [-240, -60, 0, 60, 120, 330][Int(random.next() % 6)]
            let sign = zone < 0 ? "-" : "+"
            switch random.next() % 6 {
            case 0: return GalleryDate(wall)!
            case 1: return GalleryDate(wall)!.assumingZone(zone)
            case 2: return GalleryDate(wall + "Z")!
            case 3: return GalleryDate(String(wall.prefix(10)))!
            default: return GalleryDate(wall + String(format: "%@%02d:%02d", sign, abs(zone) / 60, abs(zone) % 60))!
            }
        }
        for a in dates {
            #expect(!(a < a))
            for b in dates {
                #expect((a < b) != (b < a) || a == b, "\(a) and \(b) neither equal nor ordered")
                for c in dates where a < b && b < c { #expect(a < c, "\(a) < \(b) < \(c) but not \(a) < \(c)") }
            }
        }
        let sorted = dates.sorted()
        var shuffled = dates
        for index in shuffled.indices.reversed() { shuffled.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        #expect(shuffled.sorted() == sorted)
    }

    @Test("a UTC time is moved to a local zone; the instant stays")
    func localized() throws {
        let utc = try #require(GalleryDate("2024-08-01T01:15:00Z"))
        let local = utc.localized(toOffset: -240)
        #expect(local.description == "2024-07-31 21:15:00")
        #expect(local.iso8601 == "2024-07-31T21:15:00-04:00")
        #expect(!local.isUniversal)
        #expect(local.utcTimestamp == "2024-08-01T01:15:00Z")
        #expect(GalleryDate("2024-12-31T23:30:00Z")!.localized(toOffset: 60).description == "2025-01-01 00:30:00")
        #expect(GalleryDate("2024-03-01T00:30:00Z")!.localized(toOffset: -60).description == "2024-02-29 23:30:00")
    }

    @Test("the feed's UTC timestamp: the instant for a zoned date, the wall time for a floating one")
    func utcTimestamp() throws {
        #expect(GalleryDate("2024-07-31T08:15:42-05:00")!.utcTimestamp == "2024-07-31T13:15:42Z")
        #expect(GalleryDate("2024-07-31 08:15:42")!.utcTimestamp == "2024-07-31T08:15:42Z")
        // A floating date in the zone its album gave it (a camera beside a phone in New York).
        #expect(GalleryDate("2024-07-31 21:00:00")!.assumingZone(-240).utcTimestamp == "2024-08-01T01:00:00Z")
        #expect(GalleryDate("1987-07")!.utcTimestamp == "1987-07-01T00:00:00Z")
        #expect(GalleryDate("2024-01-01T00:30:00+01:00")!.utcTimestamp == "2023-12-31T23:30:00Z")
    }
}
