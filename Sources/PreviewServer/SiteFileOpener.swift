import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens what a request path names inside the served folder, so that what is sent is what was
/// checked: every name is opened relative to the already-open folder that contains it, with
/// `O_NOFOLLOW`, starting from the served folder itself. The kernel never follows a symbolic
/// link on the way; a link is read (`readlinkat`) and its target walked the same way, name by
/// name, from the folder holding the link, and a `..` that would climb above the served folder
/// ends the walk (404). Swapping a folder for a link while a request is answered therefore
/// cannot lead outside: the checked folder is the one held open.
///
/// Names starting with `.cascade` (the build's temporary folder `.cascade-tmp/` and its
/// bookkeeping) are never opened, whether asked for directly or reached through a link.
struct SiteFileOpener: Sendable {
    /// The served folder with symbolic links resolved, without a trailing `/`.
    let root: String

    /// What a path names.
    enum Found {
        /// A regular file, opened for reading, with its metadata.
        case file(Descriptor, stat)
        /// A folder.
        case folder
    }

    /// The most links followed for one path, as the kernel's own limit (`ELOOP`).
    static let maximumLinks = 40

    /// Whether a name belongs to the build's bookkeeping and is never served.
    static func isBookkeeping(_ name: String) -> Bool { name.hasPrefix(".cascade") }

    /// Finds `segments` (plain names, as ``SitePath`` checked them) below the served folder;
    /// `nil` when it is missing, outside, not a regular file or folder, or bookkeeping.
    func open(_ segments: [String]) -> Found? {
        let rootDescriptor = Glibc_open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else { return nil }
        // The folders walked so far, the served folder first; `..` in a link pops one.
        var folders = [Descriptor(owning: rootDescriptor)]
        var pending = Array(segments.reversed())  // names still to open, the next one last
        var linksFollowed = 0
        while let name = pending.popLast() {
            if name.isEmpty || name == "." { continue }
            if name == ".." {
                guard folders.count > 1 else { return nil }  // above the served folder
                folders.removeLast()
                continue
            }
            guard !Self.isBookkeeping(name), !name.contains("/") else { return nil }
            let parent = folders[folders.count - 1].raw
            // O_NONBLOCK: opening a FIFO must not hang the request; it is refused below.
            let raw = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if raw < 0 {
                // ELOOP (Linux, macOS) or EMLINK (FreeBSD): the name is a symbolic link.
                guard errno == ELOOP || errno == EMLINK, linksFollowed < Self.maximumLinks,
                    let target = Self.readLink(in: parent, name)
                else { return nil }
                linksFollowed += 1
                if target.hasPrefix("/") {
                    // An absolute link is followed only when it names a place in the served folder.
                    guard target == root || target.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
                    folders.removeSubrange(1...)
                    pending += target.dropFirst(root.count).split(separator: "/").map(String.init).reversed()
                } else {
                    pending += target.split(separator: "/").map(String.init).reversed()
                }
                continue
            }
            let opened = Descriptor(owning: raw)
            guard let status = opened.status() else { return nil }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                folders.append(opened)
            case S_IFREG:
                // A file can only be the last name (`file.txt/x` is missing, not the file).
                guard pending.isEmpty else { return nil }
                return .file(opened, status)
            default:
                return nil  // FIFOs, sockets, devices
            }
        }
        return .folder
    }

    /// The target of the symbolic link `name` in the folder `parent`.
    private static func readLink(in parent: Int32, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(parent, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `open(2)` under a name that does not clash with ``SiteFileOpener/open(_:)``.
private func Glibc_open(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}
