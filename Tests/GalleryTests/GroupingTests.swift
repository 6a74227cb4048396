import GalleryConfig
import Testing

@testable import Gallery

@Suite("Sections by date (group)")
struct GroupingTests {
    @Test("grouped by day, photos go by day (oldest first), undated last, each day in the album's order")
    func byDayWithNameOrder() throws {
        let folder = try PhotoFolder()
        try folder.photo("a.jpg", date: "2024:07:15 09:00:00")
        try folder.photo("b.jpg", date: "2024:07:14 18:00:00")
        try folder.photo("c.jpg")
        try folder.photo("d.jpg", date: "2024:07:15 08:00:00")
        try folder.photo("e.jpg", date: "2024:07:14 07:00:00")
        try folder.text("index.md", "---\nsort: name\ngroup: day\n---\n")
        let result = try folder.scan()
        #expect(result.problems.isEmpty)
        #expect(result.root.group == .day)
        // By name within each day: b before e on the 14th, a before d on the 15th.
        #expect(result.root.photos.map(\.fileName) == ["b.jpg", "e.jpg", "a.jpg", "d.jpg", "c.jpg"])
        let keys = result.root.photos.map { PhotoGrouping.day.key($0.date) }
        #expect(keys.map { PhotoGrouping.day.label($0) } == ["14 July 2024", "14 July 2024", "15 July 2024", "15 July 2024", "Undated"])
    }

    @Test("month and year labels; none has no sections")
    func labels() {
        let date = GalleryDate("2024-07-14 10:00")
        #expect(PhotoGrouping.month.label(PhotoGrouping.month.key(date)) == "July 2024")
        #expect(PhotoGrouping.year.label(PhotoGrouping.year.key(date)) == "2024")
        #expect(PhotoGrouping.day.label(PhotoGrouping.day.key(GalleryDate("2023-01-02"))) == "2 January 2023")
        #expect(PhotoGrouping.none.key(date) == nil)
        #expect(PhotoGrouping.month.key(GalleryDate("2024-12-31"))! < PhotoGrouping.month.key(GalleryDate("2025-01-01"))!)
    }

    @Test("the site's group applies to albums whose index.md says nothing; rows and a group are not combined")
    func siteDefaultAndRows() throws {
        let folder = try PhotoFolder()
        try folder.photo("A/x.jpg", date: "2024:01:01 10:00:00")
        try folder.photo("B/y.jpg", date: "2024:01:01 10:00:00")
        try folder.text("B/index.md", "---\nlayout: rows\n---\n")
        var configuration = SiteConfiguration()
        configuration.group = .month
        let result = try GalleryScanner(options: ScanOptions(configuration: configuration, concurrency: 1))
            .scan(sourceDirectory: folder.root.path, title: "T")
        let albums = Dictionary(uniqueKeysWithValues: result.root.albums.map { ($0.name, $0) })
        #expect(albums["A"]?.group == .month && albums["A"]?.layout == .columns)
        #expect(albums["B"]?.group == PhotoGrouping.none && albums["B"]?.layout == .rows)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.path == "B/index.md")
        #expect(result.problems.first?.reason.contains("cannot be combined with layout: rows") == true)
    }
}
