import ArgumentParser
import Foundation
import GalleryConfig

/// `cascade init [FOLDER]`: writes a commented starter `cascade.yml` into the photo folder.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a commented cascade.yml with every setting and its default into a photo folder.",
        discussion: """
            This is the only command that writes into a photo folder, and it writes only \
            cascade.yml. It refuses to replace an existing cascade.yml.
            """
    )

    @Argument(help: "The photo folder.", completion: .directory)
    var folder: String = "."

    func run() throws {
        do {
            let path = try SiteConfiguration.write(initTemplateTo: folder)
            print(path)
        } catch {
            FileHandle.standardError.write(Data("cascade: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}
