import Foundation
import Imaging

/// A photo's camera settings as people read them: "Canon EOS R5", "RF 24-70mm F2.8 L IS USM",
/// "50 mm (75 mm in 35 mm)", "f/2.8", "1/250 s", "ISO 400", "+0.7 EV". Nothing positional:
/// GPS is never part of it.
struct CameraSummary: Sendable {
    /// Each shown setting: its name (for the photo page's list) and its text, in a fixed order.
    var entries: [(name: String, value: String)]

    /// `equivalent` words a 35 mm equivalent focal length ("75 mm in 35 mm"; the site's language's).
    init(_ camera: CameraSettings?, equivalent: (Int) -> String = { "\($0) mm in 35 mm" }) {
        entries = []
        guard let camera else { return }
        if let body = Self.cameraName(make: camera.make, model: camera.model) { entries.append(("Camera", body)) }
        if let lens = camera.lens.flatMap(Self.clean) { entries.append(("Lens", lens)) }
        if let focal = camera.focalLength {
            var text = "\(Self.number(focal, digits: 1)) mm"
            if let focal35 = camera.focalLength35mm, focal35 != Int(focal.rounded()) { text += " (\(equivalent(focal35)))" }
            entries.append(("Focal length", text))
        } else if let focal35 = camera.focalLength35mm {
            entries.append(("Focal length", equivalent(focal35)))
        }
        if let aperture = camera.fNumber { entries.append(("Aperture", "f/\(Self.number(aperture, digits: 1))")) }
        if let time = camera.exposureTime, let text = Self.exposureTime(time) { entries.append(("Exposure", text)) }
        if let iso = camera.iso { entries.append(("ISO", "ISO \(iso)")) }
        if let bias = camera.exposureBias, abs(bias) >= 0.05 {
            let sign = bias > 0 ? "+" : "−"
            entries.append(("Exposure compensation", "\(sign)\(Self.number(abs(bias), digits: 1)) EV"))
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The camera's model, with its maker in front unless the model already names it
    /// ("Canon EOS R5", not "Canon Canon EOS R5"; "NIKON CORPORATION" + "NIKON D850" is "NIKON D850").
    static func cameraName(make: String?, model: String?) -> String? {
        let make = make.flatMap(clean)
        guard let model = model.flatMap(clean) else { return make }
        guard let make else { return model }
        let firstWord = make.split(separator: " ").first.map { $0.lowercased() } ?? make.lowercased()
        if model.lowercased().hasPrefix(firstWord) { return model }
        return make + " " + model
    }

    /// "1/250 s" below a second (rounded to a whole denominator), "2 s" or "2.5 s" above.
    static func exposureTime(_ time: CameraSettings.Fraction) -> String? {
        guard let value = time.value, value > 0, value.isFinite else { return nil }
        if value < 1 {
            let denominator = (1 / value).rounded()
            return "1/\(Int(denominator)) s"
        }
        return "\(number(value, digits: 1)) s"
    }

    /// A number with at most `digits` decimals, without trailing zeros ("2.8", "50", "0.7").
    static func number(_ value: Double, digits: Int) -> String {
        let text = String(format: "%.\(digits)f", value)
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// Text without control characters and surrounding blanks; nil when nothing is left.
    private static func clean(_ text: String) -> String? {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            .trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }
}

