import Foundation

/// The absolute path of `path` with every symbolic link resolved, also for a path whose last
/// components do not exist yet (what the output folder, the photo folder and the catalog are
/// compared by).
public func realPath(_ path: String) -> String {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    var existing = absolute
    var missing: [String] = []
    while !FileManager.default.fileExists(atPath: existing), existing != "/" {
        missing.insert((existing as NSString).lastPathComponent, at: 0)
        existing = (existing as NSString).deletingLastPathComponent
    }
    var resolved = URL(fileURLWithPath: existing).resolvingSymlinksInPath().path
    for component in missing {
        resolved = (resolved as NSString).appendingPathComponent(component)
    }
    return resolved
}
