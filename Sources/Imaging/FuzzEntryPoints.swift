/// The header and metadata readers, for the fuzz targets (`scripts/fuzz`, `Sources/cascade-fuzz`).
/// Each takes any bytes and returns; an error thrown is a refusal, which is fine, while a crash,
/// a trap or a hang is a bug. Not API: `@_spi(Fuzzing) import Imaging` to reach it.
@_spi(Fuzzing) public enum ImagingFuzzing {
    /// An EXIF block (a JPEG APP1 payload or a bare TIFF structure) through libexif and the
    /// reading of its fields.
    public static func exif(_ bytes: [UInt8]) {
        _ = ExifReader.read(bytes)
    }

    /// Photoshop image resources (a JPEG APP13 payload after its header), for their IPTC record.
    public static func iptc(_ bytes: [UInt8]) {
        _ = IPTCReader.fields(inResources: bytes)
    }

    /// A TIFF file's header: size, orientation, metadata, strip extents and ICC profile.
    public static func tiff(_ bytes: [UInt8]) {
        _ = try? TIFFHeader.read(ByteReader(bytes), extents: true, profile: true)
    }

    /// A HEIF or AVIF file's boxes (its first byte chooses which the reader is told).
    public static func isoMedia(_ bytes: [UInt8]) {
        let format: ImageFormat = bytes.first.map { $0 & 1 == 0 } ?? true ? .heif : .avif
        _ = try? ISOMediaHeader.read(ByteReader(bytes), format: format)
    }

    /// An XMP packet or sidecar.
    public static func xmp(_ bytes: [UInt8]) {
        _ = try? XMPReader.read(bytes)
    }

    /// Any image file, as the scan probes it (its format sniffed from its content).
    public static func probe(_ bytes: [UInt8]) {
        _ = try? ImageProbe.probe(bytes)
    }
}
