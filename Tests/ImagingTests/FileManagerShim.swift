import Foundation

enum FileManagerShim {
    static func temporaryFile(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "cascade-imaging-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
