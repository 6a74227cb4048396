import Foundation

extension SiteConfiguration {
    /// The starter `cascade.yml` that `cascade init` writes: every key, commented, set to its
    /// default (the optional texts commented out), so that it parses to ``SiteConfiguration/init()``.
    public static var initTemplate: String {
        let defaults = SiteConfiguration()
        return """
        # Cascade settings for this photo folder.
        # Every key is optional: delete a line (or comment it out) to keep its default.
        # Cascade only reads this folder; `cascade init` is the one command that writes this file.

        # The site's title. Default: the --title option, else the photo folder's name.
        # title: Holidays

        # The photographer, shown in the pages' footer and metadata. Default: none.
        # author: Jane Doe

        # The site's absolute address, for the sitemap and Open Graph previews (http:// or https://).
        # Default: none (the site uses relative links only).
        # base_url: https://example.com/photos/

        # Columns of the waterfall: from each album width (CSS px) upwards, this many columns,
        # and for albums laid out in rows (layout: rows) the height rows are aimed at (CSS px).
        # Listed by growing min_width; the first starts at 0. Columns: \(SettingRange.text(SettingRange.columns));
        # row_height: \(SettingRange.text(SettingRange.rowHeight)) (optional).
        breakpoints:
        \(defaults.breakpoints.map { "  - { min_width: \($0.minWidth), columns: \($0.columns), row_height: \($0.effectiveRowHeight) }" }.joined(separator: "\n"))

        # Space between tiles, in CSS px (\(SettingRange.text(SettingRange.gap))).
        gap: \(defaults.gap)

        # Space around the page content, in CSS px (\(SettingRange.text(SettingRange.pagePadding))).
        page_padding: \(defaults.pagePadding)

        # Widths in pixels of the tile images in an album (\(SettingRange.text(SettingRange.imageWidth)); never upscaled).
        thumbnail_widths: \(defaults.thumbnailWidths)

        # Widths in pixels of the large image on a photo's page and in the lightbox.
        photo_widths: \(defaults.photoWidths)

        # Formats of the generated images: jpeg, webp, avif. Every image is made in each;
        # browsers get the best they support (AVIF, then WebP), and the rest JPEG.
        # Example: [jpeg, avif]. AVIF is slow to make.
        formats: [jpeg]

        # Quality of the generated images, \(SettingRange.text(SettingRange.quality)).
        quality: \(defaults.quality)

        # Colour space of the generated images: srgb (every image in sRGB) or wide (photos whose
        # colours reach beyond sRGB, such as iPhone photos in Display P3 or Adobe RGB exports,
        # are made in Display P3 with its profile embedded, for wide-gamut screens).
        colour: \(defaults.colour.rawValue)

        # Order of photos and albums: date (capture date, oldest first; undated ones last, by name),
        # date-desc (newest first), name (numbers by value: IMG_2 before IMG_10) or name-desc.
        # An album's index.md can override it, or list its photos in order (order: [a.jpg, b.jpg]).
        sort: date

        # Publish only photos rated this many stars or more (XMP or EXIF rating; \(SettingRange.text(SettingRange.minRating)),
        # 0: every photo). A rejected photo (rating -1) is never published.
        min_rating: \(defaults.minRating)

        # Photos whose header claims more megapixels than this are refused (\(SettingRange.text(SettingRange.maxMegapixels))).
        max_megapixels: \(defaults.maxMegapixels)

        # Keep GPS positions out of everything published.
        strip_gps: true

        # Show each photo's camera settings (camera, lens, focal length, aperture, exposure, ISO)
        # on its page and in the lightbox.
        show_exif: true

        # List the people named in photos' face regions (digiKam, Lightroom, Picasa, Windows) on
        # their pages and give each a page of their photos; false publishes no name of a face.
        people: true

        # Publish each original file and link to it from the photo's page.
        download_originals: false

        # A search box on every page, over captions, keywords, cameras, albums and dates (the
        # build writes its index into search/).
        search: true

        # How capture dates are shown: YYYY year, MMMM month name, MMM short month name, MM or M
        # month number, DD or D day, HH or H hour, mm minute, ss second; other text is kept.
        date_format: "\(defaults.dateFormat.pattern)"

        # Seconds each photo stays on screen in the lightbox's slideshow (\(SettingRange.text(SettingRange.slideshowInterval))).
        slideshow_interval: \(defaults.slideshowInterval)

        # A strip of the album's thumbnails under the photo in the lightbox.
        lightbox_thumbnails: \(defaults.lightboxThumbnails)

        # Videos (ffmpeg must be installed): the largest height of their web version as shown
        # (a portrait clip's long side) (\(SettingRange.text(SettingRange.videoMaxHeight)) px); its quality when it is encoded
        # (\(SettingRange.text(SettingRange.quality))); videos longer than video_max_duration minutes are skipped (\(SettingRange.text(SettingRange.videoMaxDuration))).
        video_max_height: \(defaults.videoMaxHeight)
        video_quality: \(defaults.videoQuality)
        video_max_duration: \(defaults.videoMaxDuration)
        # Sections by capture date, each under a header that stays on screen while its photos
        # scroll by: day ("14 July 2024"), month ("July 2024"), year ("2024") or none.
        # Undated photos come last, under "Undated". An album's index.md can override it.
        group: none

        # How albums are laid out: columns (a waterfall, each photo under the shortest column)
        # or rows (justified rows of about row_height, each filling the width). An album's
        # index.md can override it. Rows and group cannot be combined yet.
        layout: columns

        # The language of every word the pages write, a BCP 47 tag: en, fr, de, es, it, pt, nl,
        # pl, ja, zh-Hans, ar (right to left), or a region's (pt-BR takes pt's words).
        language: en

        """
    }

    /// Writes ``initTemplate`` to `folder/cascade.yml` and returns the file's path.
    ///
    /// Refuses (``ConfigurationError/Kind/alreadyExists``) when a file, folder or link of that name
    /// is already there: an existing configuration is never replaced. The file is created
    /// exclusively, so a concurrent writer cannot be overwritten either.
    @discardableResult
    public static func write(initTemplateTo folder: String) throws(ConfigurationError) -> String {
        let directory = URL(fileURLWithPath: folder)
        let path = directory.appendingPathComponent(fileName).path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigurationError(kind: .unwritable, file: path, reason: "\(folder) is not an existing folder")
        }
        if (try? FileManager.default.attributesOfItem(atPath: path)) != nil {
            throw ConfigurationError(kind: .alreadyExists, file: path,
                                     reason: "already exists; Cascade never overwrites it (edit it, or delete it and run `cascade init` again)")
        }
        do {
            try Data(initTemplate.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            if (try? FileManager.default.attributesOfItem(atPath: path)) != nil {
                throw ConfigurationError(kind: .alreadyExists, file: path, reason: "already exists; Cascade never overwrites it")
            }
            throw ConfigurationError(kind: .unwritable, file: path, reason: "cannot write the file: \(error.localizedDescription)")
        }
        return path
    }
}
