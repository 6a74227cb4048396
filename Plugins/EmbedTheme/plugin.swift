import Foundation
import PackagePlugin

/// Embeds the default theme (the top-level `templates/` folder) into the target that uses this
/// plugin, so the built `cascade` binary carries its own copy and keeps working when copied
/// elsewhere.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let themeDirectory = context.package.directoryURL.appending(path: "templates").resolvingSymlinksInPath()
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTheme.swift")
        let files = try FileManager.default.subpathsOfDirectory(atPath: themeDirectory.path)
            .sorted()
            .map { themeDirectory.appending(path: $0) }
            .filter { url in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }
        return [
            .buildCommand(
                displayName: "Embedding the default theme from templates/",
                executable: try context.tool(named: "embed-theme").url,
                arguments: [themeDirectory.path, output.path],
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
