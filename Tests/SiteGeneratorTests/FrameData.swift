import Foundation
import Testing

/// An album's frame data as the README documents it (`frames.json` version 3 and its chunks),
/// read back and expanded: every item's page and images, and every frame at each breakpoint's
/// reference width, computed with the documented formulas.
struct FrameData {
    struct Item {
        var id: String
        var page: String
        var alt: String
        var width: Int
        var height: Int
        var color: String
        var thumbnails: [(width: Int, url: String)]
        var images: [(width: Int, url: String)]
    }

    struct Breakpoint {
        var minWidth: Int
        var columns: Int
        var referenceWidth: Double
        var columnWidth: Double
        var contentHeight: Double
        /// Per item: x, y, width, height at the reference width.
        var frames: [[Double]]
        /// Per section of a grouped album: its box (header on top, then its columns): y and height.
        var sectionBoxes: [(y: Double, height: Double)] = []
    }

    var count: Int
    var gap: Double
    var staticCount: Int
    var items: [Item]
    var breakpoints: [Breakpoint]
    /// A grouped album's sections (empty otherwise): first item and header text.
    var sections: [(start: Int, label: String)]
    var headerHeight: Double
    /// The index file's size in bytes.
    var indexBytes: Int

    init(folder: URL) throws {
        let indexData = try Data(contentsOf: folder.appendingPathComponent("frames.json"))
        indexBytes = indexData.count
        let json = try #require(try JSONSerialization.jsonObject(with: indexData) as? [String: Any])
        #expect(json["version"] as? Int == 3)
        count = try #require(json["count"] as? Int)
        gap = try #require(json["gap"] as? Double)
        staticCount = try #require(json["staticCount"] as? Int)
        let scale = try #require(json["ratioScale"] as? Double)
        let ratios = try #require(json["ratios"] as? [Int]).map { Double($0) / scale }
        let ids = try #require(json["ids"] as? [String])
        let colors = Array(try #require(json["colors"] as? String))
        #expect(colors.count == 6 * count, "six hex digits a photo")
        let pageURL = try #require(json["pageURL"] as? String)
        let imageURL = try #require(json["imageURL"] as? String)
        let tileMax = try #require(json["tileMaxWidth"] as? Int)
        let chunkSize = try #require(json["chunkSize"] as? Int)
        let chunks = try #require(json["chunks"] as? [String])
        #expect(ratios.count == count && ids.count == count)
        #expect(chunks.count == (count + chunkSize - 1) / chunkSize)
        var items: [Item] = []
        for (number, chunk) in chunks.enumerated() {
            let chunkJSON = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent(chunk))) as? [String: Any])
            #expect(chunkJSON["start"] as? Int == number * chunkSize)
            for detail in try #require(chunkJSON["items"] as? [[String: Any]]) {
                let id = ids[items.count]
                let color = try #require(detail["color"] as? String)
                #expect(color == "#" + String(colors[(6 * items.count)..<(6 * items.count + 6)]), "the index's colour of \(id)")
                let widths = try #require(detail["widths"] as? [Int])
                // `{dir}` and `{name}`: the id up to and after its last `/` (a tag page's ids are paths).
                let cut = id.lastIndex(of: "/").map { id.index(after: $0) } ?? id.startIndex
                let images = widths.map { width in
                    (width, imageURL.replacingOccurrences(of: "{dir}", with: String(id[..<cut]))
                        .replacingOccurrences(of: "{name}", with: String(id[cut...]))
                        .replacingOccurrences(of: "{id}", with: id)
                        .replacingOccurrences(of: "{width}", with: String(width)))
                }
                var thumbnails = images.filter { $0.0 <= tileMax }
                if thumbnails.isEmpty { thumbnails = Array(images.prefix(1)) }
                items.append(Item(
                    id: id, page: pageURL.replacingOccurrences(of: "{id}", with: id),
                    alt: try #require(detail["alt"] as? String), width: try #require(detail["width"] as? Int),
                    height: try #require(detail["height"] as? Int), color: color,
                    thumbnails: thumbnails, images: images))
            }
        }
        #expect(items.count == count)
        self.items = items
        let hh = try #require(json["headerHeight"] as? Double)
        var sectionList: [(start: Int, label: String)] = []
        for entry in try #require(json["sections"] as? [[String: Any]]) {
            sectionList.append((try #require(entry["start"] as? Int), try #require(entry["label"] as? String)))
        }
        let starts = Set(sectionList.map(\.start))
        headerHeight = hh
        sections = sectionList
        var breakpoints: [Breakpoint] = []
        let g = gap
        for entry in try #require(json["breakpoints"] as? [[String: Any]]) {
            let columns = try #require(entry["columns"] as? Int)
            let referenceWidth = try #require(entry["referenceWidth"] as? Double)
            let columnString = Array(try #require(entry["column"] as? String).unicodeScalars)
            #expect(columnString.count == count)
            let columnWidth = (referenceWidth - Double(columns - 1) * g) / Double(columns)
            var sums = Array(repeating: 0.0, count: columns)
            var counts = Array(repeating: 0, count: columns)
            var frames: [[Double]] = []
            // Sections, as the README documents them: each starts below the previous one's
            // largest column ratio sum and count, a gap, and its header and a gap.
            var boxes: [(y: Double, height: Double)] = []
            var sectionTop = 0.0
            var columnsTop = 0.0
            func closeSection() {
                guard !boxes.isEmpty else { return }
                let bottom = columnsTop + (sums.max() ?? 0) * columnWidth + Double((counts.max() ?? 1) - 1) * g
                boxes[boxes.count - 1].height = bottom - sectionTop
                sectionTop = bottom + g
            }
            for (index, scalar) in columnString.enumerated() {
                if starts.contains(index) {
                    closeSection()
                    boxes.append((sectionTop, 0))
                    columnsTop = sectionTop + hh + g
                    sums = Array(repeating: 0.0, count: columns)
                    counts = Array(repeating: 0, count: columns)
                }
                let column = try #require(Int(String(scalar), radix: 36))
                #expect(column < columns)
                let top = columnsTop + sums[column] * columnWidth + Double(counts[column]) * g
                frames.append([Double(column) * (columnWidth + g), top, columnWidth, ratios[index] * columnWidth])
                sums[column] += ratios[index]
                counts[column] += 1
            }
            closeSection()
            #expect(abs(columnWidth - (entry["columnWidth"] as? Double ?? -1)) < 0.01)
            breakpoints.append(Breakpoint(
                minWidth: try #require(entry["minWidth"] as? Int), columns: columns, referenceWidth: referenceWidth,
                columnWidth: columnWidth, contentHeight: try #require(entry["contentHeight"] as? Double), frames: frames,
                sectionBoxes: boxes))
        }
        self.breakpoints = breakpoints
    }
}
