import ArgumentParser
import Foundation
import GalleryConfig
import SiteGenerator

// The values of the options that take one of a few words: swift-argument-parser checks them,
// lists them in the help and, for a value that is none of them, names the choices.

/// `--sort`: `date`, `date-desc`, `name` or `name-desc`, in any case.
extension AlbumSortOrder: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}

/// `--shard-by`: `content` or `path`.
extension ShardSpec.Assignment: ExpressibleByArgument {}

/// `--format`: one image format (`jpeg`, `webp` or `avif`, in any case; `jpg` is `jpeg`), or
/// several separated by commas (`jpeg,avif`), each named once, in the order given.
struct ImageFormatList: ExpressibleByArgument {
    /// The formats named, the first the main one.
    var formats: [SiteConfiguration.ImageFormat]

    init?(argument: String) {
        var list: [SiteConfiguration.ImageFormat] = []
        for name in argument.lowercased().split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let chosen = SiteConfiguration.ImageFormat(rawValue: trimmed == "jpg" ? "jpeg" : trimmed) else { return nil }
            if !list.contains(chosen) { list.append(chosen) }
        }
        guard !list.isEmpty else { return nil }
        formats = list
    }

    static var allValueStrings: [String] { SiteConfiguration.ImageFormat.allCases.map(\.rawValue) }
}
