/// The colour space of the published images (`colour` in `cascade.yml`).
public enum ColourSetting: String, Sendable, Hashable, CaseIterable {
    /// Every image in sRGB, without a profile: what every screen and browser shows alike.
    case srgb
    /// Photos whose colours reach beyond sRGB (Display P3, Adobe RGB, BT.2020 profiles) keep
    /// them: their images are made in Display P3 with a compact Display P3 profile; every other
    /// photo is made in sRGB as with `srgb`.
    case wide
}
