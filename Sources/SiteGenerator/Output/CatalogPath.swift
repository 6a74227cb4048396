import Catalog
import Foundation

/// Where catalogs, build locks and a sharded build's records of an output folder go: named by
/// the folder's real path, in Cascade's cache folder.
extension Catalog {
    /// Where the catalog of the output folder `output` (absolute, real) goes by default.
    static func defaultPath(output: String) -> String {
        cacheFolder() + "/catalogs/" + key(output: output) + ".sqlite"
    }

    /// `$XDG_CACHE_HOME/cascade`, else `~/.cache/cascade`.
    static func cacheFolder() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/cascade" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/cascade"
    }

    /// A file name for the output folder: its last component (readable) and a hash of its path.
    static func key(output: String) -> String {
        var hasher = FingerprintHasher()
        hasher.combine(output)
        let name = SlugAllocator.slug((output as NSString).lastPathComponent)
        return (name.isEmpty ? "site" : String(name.prefix(40))) + "-" + hasher.hex
    }
}
