/// Cascade's version: the one place it is written. `cascade --version` prints it and
/// `scripts/package` names the Debian package after it (`dist/cascade_VERSION_ARCH.deb`).
enum CascadeVersion {
    static let current = "0.9.0"
}
