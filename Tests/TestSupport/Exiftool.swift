import Foundation

/// Runs exiftool (`libimage-exiftool-perl`, installed by `scripts/setup --tests`) on `path`,
/// changing the file in place: what photographers' tools write, written by the tool that
/// reads and writes every such field.
public func exiftool(_ arguments: [String], on path: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
    process.arguments = ["-q", "-q", "-overwrite_original", "-m"] + arguments + [path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if process.terminationStatus != 0 {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "exiftool failed: \(message)"])
    }
}

/// The text of an XMP sidecar with these `dc`, `xmp`, `photoshop` and `lr` properties, as
/// Lightroom writes one: `body` goes inside `rdf:Description`, `attributes` on it.
public func xmpSidecar(_ body: String, attributes: String = "") -> String {
    """
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
        xmlns:lr="http://ns.adobe.com/lightroom/1.0/" \(attributes)>
    \(body)
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """
}
