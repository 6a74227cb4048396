import GalleryConfig
import Imaging
import Testing

@testable import SiteGenerator

/// `SiteConfiguration` is the one source of defaults and ranges: the options a build takes
/// without a configuration, and what they accept, are the configuration file's.
@Suite("Options and configuration agree")
struct SiteOptionsTests {
    @Test("options without a configuration file have the configuration's defaults")
    func defaults() {
        let plain = SiteOptions(sourceDirectory: "/s", outputDirectory: "/o", title: "t")
        let configured = SiteOptions(configuration: SiteConfiguration(), sourceDirectory: "/s", outputDirectory: "/o", title: "t")
        #expect(plain.breakpoints == configured.breakpoints)
        #expect(plain.gap == configured.gap)
        #expect(plain.pagePadding == configured.pagePadding)
        #expect(plain.tileWidths == configured.tileWidths)
        #expect(plain.photoWidths == configured.photoWidths)
        #expect(plain.imageFormat == configured.imageFormat)
        #expect(plain.limits.maxPixels == configured.limits.maxPixels)
    }

    @Test("a width cascade.yml accepts is a width a build accepts, and the next one is refused by both")
    func widthRange() throws {
        let widest = SettingRange.imageWidth.upperBound
        let configuration = try SiteConfiguration.parse("thumbnail_widths: [\(widest)]\nphoto_widths: [\(SettingRange.imageWidth.lowerBound)]")
        var options = SiteOptions(configuration: configuration, sourceDirectory: "/s", outputDirectory: "/o", title: "t")
        #expect(throws: Never.self) { try options.validate() }
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("thumbnail_widths: [\(widest + 1)]") }
        options.tileWidths = [widest + 1]
        #expect(throws: SiteError.self) { try options.validate() }
        options.tileWidths = [400]
        options.gap = SettingRange.gap.upperBound + 1
        #expect(throws: SiteError.self) { try options.validate() }
        #expect(throws: ConfigurationError.self) { try SiteConfiguration.parse("gap: \(SettingRange.gap.upperBound + 1)") }
        options.gap = 8
        options.slideshowInterval = SettingRange.slideshowInterval.upperBound + 1
        #expect(throws: SiteError.self) { try options.validate() }
    }

    @Test("cascade init's file states the ranges the checks use")
    func initTemplateRanges() {
        for range in [SettingRange.imageWidth, SettingRange.gap, SettingRange.pagePadding, SettingRange.quality, SettingRange.maxMegapixels, SettingRange.columns,
                      SettingRange.slideshowInterval] {
            #expect(SiteConfiguration.initTemplate.contains(SettingRange.text(range)), "\(range)")
        }
    }
}
