import Foundation
import Waterfall

/// Renders the pages and `frames.json` of each album through the theme.
struct PageRenderer {
    let plan: SitePlan
    /// Per photo of the plan, its images (nil for a photo that was skipped).
    let images: [PhotoImages?]
    let options: SiteOptions
    let theme: Theme

    /// Site-relative path to contents, for one album: its page, its `frames.json` and its photos' pages.
    func albumFiles(album index: Int) throws(SiteError) -> [(String, String)] {
        let album = plan.albums[index]
        let photos = album.photos
        let sizes = photos.map { photo in
            Size(width: Double(images[photo]!.width), height: Double(images[photo]!.height))
        }
        let wall: AlbumWall
        do {
            wall = try AlbumWall(displaySizes: sizes, breakpoints: options.breakpoints, gap: options.gap)
        } catch {
            throw .invalidOption(error.description)
        }
        var files: [(String, String)] = []
        var context = common(directory: album.directory, title: album.name, ancestors: album.ancestors)
        context["album"] = [
            "name": album.name,
            "photoCount": photos.count,
            "totalPhotoCount": totalPhotos(index),
            "countLabel": photoCountLabel(totalPhotos(index)),
            "isRoot": index == 0,
        ] as [String: Any]
        context["albums"] = album.albums.map { albumCard($0, from: album.directory) }
        context["hasAlbums"] = !album.albums.isEmpty
        context["hasPhotos"] = !photos.isEmpty
        context["isEmpty"] = album.albums.isEmpty && photos.isEmpty
        context["wallCSS"] = wall.css()
        context["framesURL"] = "frames.json"
        let sizesAttribute = wall.sizesAttribute(pagePadding: options.pagePadding)
        context["tiles"] = photos.enumerated().map { position, photo in
            tile(photo, position: position, wall: wall, sizes: sizesAttribute, directory: album.directory)
        }
        files.append((album.directory + "index.html", try theme.render("album", context)))
        files.append((album.directory + "frames.json", framesJSON(album: index, wall: wall)))
        for (position, photo) in photos.enumerated() {
            files.append((plan.pagePath(photo: photo), try photoPage(photo, position: position, in: index)))
        }
        return files
    }

    // MARK: - Contexts

    /// Variables every page receives.
    private func common(directory: String, title: String, ancestors: [(name: String, directory: String)]) -> [String: Any] {
        var crumbs: [[String: Any]] = ancestors.map { ["name": $0.name, "url": relativeURL(from: directory, to: $0.directory + "index.html")] }
        if !crumbs.isEmpty || !directory.isEmpty {
            crumbs.append(["name": title, "current": true])
        }
        return [
            "site": ["title": options.title] as [String: Any],
            "title": title,
            "pageTitle": directory.isEmpty && ancestors.isEmpty ? options.title : "\(title) · \(options.title)",
            "rootURL": relativeURL(from: directory, to: "index.html"),
            "assetsURL": relativeURL(from: directory, to: "assets/"),
            "breadcrumbs": crumbs,
            "hasBreadcrumbs": crumbs.count > 1,
            "gap": options.gap,
            "pagePadding": options.pagePadding,
        ]
    }

    private func albumCard(_ index: Int, from directory: String) -> [String: Any] {
        let album = plan.albums[index]
        var card: [String: Any] = [
            "name": album.name,
            "url": relativeURL(from: directory, to: album.directory + "index.html"),
            "photoCount": totalPhotos(index),
            "countLabel": photoCountLabel(totalPhotos(index)),
        ]
        if let cover = cover(of: index), let coverImages = images[cover] {
            let tileImages = coverImages.renditions.filter { $0.width <= (options.tileWidths.max() ?? 800) }
            let chosen = tileImages.first { $0.width >= 600 } ?? tileImages.last ?? coverImages.renditions[0]
            card["cover"] = [
                "src": relativeURL(from: directory, to: chosen.path),
                "srcset": srcset(tileImages, from: directory),
                "sizes": "(min-width: 700px) 320px, 50vw",
                "width": chosen.width, "height": chosen.height,
                "alt": altText(cover),
                "color": coverImages.color,
            ] as [String: Any]
        }
        return card
    }

    private func tile(_ photo: Int, position: Int, wall: AlbumWall, sizes: String, directory: String) -> [String: Any] {
        let photoImages = images[photo]!
        let tileImages = photoImages.renditions.filter { $0.width <= (options.tileWidths.max() ?? 800) }
        let usable = tileImages.isEmpty ? [photoImages.renditions[0]] : tileImages
        let src = usable.first { $0.width >= 400 } ?? usable.last!
        let eager = wall.isInFirstRow(index: position)
        return [
            "index": position,
            "url": relativeURL(from: directory, to: plan.pagePath(photo: photo)),
            "style": wall.tileStyle(index: position) + ";--bg:\(photoImages.color)",
            "src": relativeURL(from: directory, to: src.path),
            "srcset": srcset(usable, from: directory),
            "sizes": sizes,
            "width": photoImages.width,
            "height": photoImages.height,
            "alt": altText(photo),
            "caption": plan.photos[photo].photo.caption ?? "",
            "loading": eager ? "eager" : "lazy",
            "color": photoImages.color,
        ]
    }

    private func photoPage(_ photo: Int, position: Int, in albumIndex: Int) throws(SiteError) -> String {
        let album = plan.albums[albumIndex]
        let entry = plan.photos[photo]
        let photoImages = images[photo]!
        let title = entry.photo.caption ?? entry.photo.stem
        var context = common(directory: album.directory, title: title,
                             ancestors: album.ancestors + [(album.name, album.directory)])
        let large = photoImages.renditions.last { $0.width <= 1600 } ?? photoImages.renditions[0]
        context["photo"] = [
            "title": title,
            "alt": altText(photo),
            "caption": entry.photo.caption ?? "",
            "hasCaption": entry.photo.caption != nil,
            "date": entry.photo.captureDate ?? "",
            "isoDate": (entry.photo.captureDate ?? "").replacingOccurrences(of: " ", with: "T"),
            "hasDate": entry.photo.captureDate != nil,
            "hasDetails": entry.photo.caption != nil || entry.photo.captureDate != nil,
            "fileName": entry.photo.fileName,
            "src": relativeURL(from: album.directory, to: large.path),
            "srcset": srcset(photoImages.renditions, from: album.directory),
            "sizes": "(min-aspect-ratio: \(photoImages.width)/\(photoImages.height)) calc(\(String(format: "%.4f", Double(photoImages.width) / Double(max(photoImages.height, 1)))) * (100vh - 140px)), 100vw",
            "width": photoImages.width,
            "height": photoImages.height,
            "color": photoImages.color,
            "position": position + 1,
            "count": album.photos.count,
        ] as [String: Any]
        context["album"] = ["name": album.name, "url": relativeURL(from: album.directory, to: album.directory + "index.html")] as [String: Any]
        if position > 0 {
            let previous = album.photos[position - 1]
            context["previous"] = ["url": relativeURL(from: album.directory, to: plan.pagePath(photo: previous)), "title": plan.photos[previous].photo.stem] as [String: Any]
        }
        if position + 1 < album.photos.count {
            let next = album.photos[position + 1]
            context["next"] = ["url": relativeURL(from: album.directory, to: plan.pagePath(photo: next)), "title": plan.photos[next].photo.stem] as [String: Any]
        }
        return try theme.render("photo", context)
    }

    // MARK: - frames.json

    /// The precomputed frame arrays of one album (documented in the README).
    func framesJSON(album index: Int, wall: AlbumWall) -> String {
        let album = plan.albums[index]
        var json = "{\"version\":1,\"gap\":\(options.gap),\"breakpoints\":["
        for (position, entry) in wall.layouts.enumerated() {
            if position > 0 { json += "," }
            let layout = entry.layout
            json += "{\"minWidth\":\(Int(entry.breakpoint.minWidth)),\"columns\":\(layout.columnCount)"
            json += ",\"referenceWidth\":\(AlbumWall.jsonNumber(entry.breakpoint.referenceWidth))"
            json += ",\"columnWidth\":\(AlbumWall.jsonNumber(layout.columnWidth))"
            json += ",\"contentHeight\":\(AlbumWall.jsonNumber(layout.contentSize.height)),\"frames\":["
            for (item, frame) in layout.frames.enumerated() {
                if item > 0 { json += "," }
                json += "[\(AlbumWall.jsonNumber(frame.x)),\(AlbumWall.jsonNumber(frame.y)),"
                    + "\(AlbumWall.jsonNumber(frame.width)),\(AlbumWall.jsonNumber(frame.height))]"
            }
            json += "]}"
        }
        json += "],\"items\":["
        for (position, photo) in album.photos.enumerated() {
            if position > 0 { json += "," }
            let photoImages = images[photo]!
            let tileLimit = options.tileWidths.max() ?? 800
            json += "{\"page\":\(jsonString(relativeURL(from: album.directory, to: plan.pagePath(photo: photo))))"
            json += ",\"alt\":\(jsonString(altText(photo)))"
            json += ",\"width\":\(photoImages.width),\"height\":\(photoImages.height)"
            json += ",\"ratio\":\(AlbumWall.decimal(wall.ratioUnits[position], scale: AlbumWall.ratioScale))"
            json += ",\"color\":\(jsonString(photoImages.color)),\"thumbnails\":["
            json += photoImages.renditions.filter { $0.width <= tileLimit }.map {
                "{\"width\":\($0.width),\"url\":\(jsonString(relativeURL(from: album.directory, to: $0.path)))}"
            }.joined(separator: ",")
            json += "],\"images\":["
            json += photoImages.renditions.map {
                "{\"width\":\($0.width),\"url\":\(jsonString(relativeURL(from: album.directory, to: $0.path)))}"
            }.joined(separator: ",")
            json += "]}"
        }
        json += "]}\n"
        return json
    }

    // MARK: - Helpers

    private func srcset(_ renditions: [PhotoImages.Image], from directory: String) -> String {
        renditions.map { "\(relativeURL(from: directory, to: $0.path)) \($0.width)w" }.joined(separator: ", ")
    }

    private func altText(_ photo: Int) -> String {
        plan.photos[photo].photo.caption ?? plan.photos[photo].photo.stem
    }

    private func cover(of index: Int) -> Int? {
        plan.albums[index].photos.first ?? plan.albums[index].albums.lazy.compactMap { cover(of: $0) }.first
    }

    private func photoCountLabel(_ count: Int) -> String {
        count == 1 ? "1 photo" : "\(count) photos"
    }

    private func totalPhotos(_ index: Int) -> Int {
        plan.albums[index].photos.count + plan.albums[index].albums.reduce(0) { $0 + totalPhotos($1) }
    }
}

/// A JSON string literal; `<`, `>` and `&` are escaped too, so the text is safe inside HTML.
func jsonString(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        case "<", ">", "&", "\u{2028}", "\u{2029}":
            output += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
        default:
            if scalar.value < 0x20 {
                output += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }
    return output + "\""
}
