import GalleryConfig
import Testing

/// The lightbox's settings in `cascade.yml`: `lightbox_thumbnails`.
@Suite("Lightbox settings")
struct LightboxSettingsTests {
    @Test("lightbox_thumbnails is off by default and read as a yes or no")
    func thumbnails() throws {
        #expect(!SiteConfiguration().lightboxThumbnails)
        #expect(try SiteConfiguration.parse("lightbox_thumbnails: true\n").lightboxThumbnails)
        #expect(try !SiteConfiguration.parse("lightbox_thumbnails: false\n").lightboxThumbnails)
        let error = try #require(throws: ConfigurationError.self) { try SiteConfiguration.parse("title: T\nlightbox_thumbnails: many\n") }
        #expect(error.line == 2)
        #expect(error.description.contains("lightbox_thumbnails"))
    }
}
