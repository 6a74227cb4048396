import GalleryConfig
import Testing

@Suite("date_format")
struct DateFormatTests {
    @Test("the default shows dates for people, without a time when there is none")
    func defaultFormat() throws {
        let evening = try #require(GalleryDate("2007:08:02 18:30:00"))
        #expect(DateFormat.default.string(evening) == "2 August 2007, 18:30")
        let day = try #require(GalleryDate("2024-12-25"))
        #expect(DateFormat.default.string(day) == "25 December 2024")
    }

    @Test("every token, literal text kept, and a time cut with the words that lead to it")
    func tokens() throws {
        let date = try #require(GalleryDate("2024-03-05 07:08:09"))
        #expect(DateFormat(pattern: "YYYY-MM-DD HH:mm:ss").string(date) == "2024-03-05 07:08:09")
        #expect(DateFormat(pattern: "MMM D, YYYY · H:mm").string(date) == "Mar 5, 2024 · 7:08")
        #expect(DateFormat(pattern: "D.M.YYYY").string(date) == "5.3.2024")
        #expect(DateFormat(pattern: "MMMM YYYY").string(date) == "March 2024")
        let noTime = try #require(GalleryDate("2024-03-05"))
        #expect(DateFormat(pattern: "D MMMM YYYY at HH:mm").string(noTime) == "5 March 2024")
        #expect(DateFormat(pattern: "HH:mm, D MMMM").string(noTime) == "5 March")
        #expect(DateFormat(pattern: "HH:mm, D MMMM").string(date) == "07:08, 5 March")
    }

    @Test("cascade.yml reads date_format and slideshow_interval and refuses bad values")
    func configuration() throws {
        let configuration = try SiteConfiguration.parse("date_format: \"YYYY-MM-DD\"\nslideshow_interval: 7\n")
        #expect(configuration.dateFormat == DateFormat(pattern: "YYYY-MM-DD"))
        #expect(configuration.slideshowInterval == 7)
        #expect(SiteConfiguration().dateFormat == .default && SiteConfiguration().slideshowInterval == 4)
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("date_format: today\n") }
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("slideshow_interval: 0\n") }
    }
}
