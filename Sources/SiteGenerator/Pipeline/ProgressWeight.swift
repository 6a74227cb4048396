import Gallery
import Video

/// What each item of a build weighs on the progress bar, in units of one photo's images, so
/// that the bar and its ETA count a video by its duration rather than as one more item.
///
/// The weights come from the benchmarks of this machine (BENCHMARKS.md): a 12 MP photo's four
/// images take about 0.2 CPU s; transcoding one second of 1080p video takes about 6.6 CPU s
/// (x264 `-preset fast`: a 30-second clip about 200 CPU s), some 30 photos' worth; a remux
/// (streams copied) of a 30-second clip with its poster about 3.6 CPU s, some 0.5 photos' worth
/// a second. Encoding cost grows with the pixels made, so a transcode is weighed by its output
/// size against 1080p. The bar moves when an item is done, not during an encode.
public enum ProgressWeight {
    /// One photo's images (made or kept), and any item whose video is kept or moved.
    public static let item = 1.0
    /// One second of video transcoded to 1920×1080.
    public static let transcodeSecond = 30.0
    /// One second of video copied stream for stream (remuxed).
    public static let remuxSecond = 0.5
    /// The pixels of a 1080p frame, against which a transcode's output is weighed.
    static let fullHDPixels = 1920.0 * 1080.0

    /// The weight of an item whose web version (or motion clip) of `duration` seconds is made,
    /// remuxed or transcoded to `width` × `height`: its poster or photo, plus the encode.
    public static func units(madeVideoOf duration: Double, remux: Bool, width: Int, height: Int) -> Double {
        let seconds = duration.isFinite ? max(0, duration) : 0
        if remux { return item + seconds * remuxSecond }
        return item + seconds * transcodeSecond * Double(max(0, width) * max(0, height)) / fullHDPixels
    }

    /// The weight of one item of a build: one unit, plus the encode when its web version or
    /// motion clip is made (`job`'s decision) by `encoder`.
    static func units(of photo: GalleryPhoto, job: VideoJob?, encoder: VideoEncoder?) -> Double {
        guard let job, job.decision == .make, let encoder, let info = photo.video ?? photo.motion?.video else { return item }
        let size = encoder.outputSize(info)
        return units(madeVideoOf: info.duration, remux: encoder.remuxes(info), width: size.width, height: size.height)
    }

    /// The share of the work done, 0 to 1: by units when the build weighed its items
    /// (`totalUnits` > 0), else by items.
    public static func fraction(done: Int, total: Int, units: Double, totalUnits: Double) -> Double {
        if totalUnits > 0 { return min(1, max(0, units / totalUnits)) }
        return total > 0 ? min(1, Double(done) / Double(total)) : 1
    }

    /// Items per second and the seconds left, at the pace of the `elapsed` seconds since
    /// `start` (how many items and what share of the work were done then: from the first item
    /// finished, so that the time before it, reading the catalog or planning a large library,
    /// does not count as slow work). Nil until `minimum` seconds have passed or while nothing
    /// more is done; `remaining` is nil when the share done has not grown.
    public static func pace(
        elapsed: Double, since start: (done: Int, fraction: Double), done: Int, fraction: Double, minimum: Double = 1
    ) -> (rate: Double, remaining: Double?)? {
        guard elapsed >= minimum, done > start.done else { return nil }
        let rate = Double(done - start.done) / elapsed
        guard fraction > start.fraction else { return (rate, nil) }
        return (rate, max(0, elapsed * (1 - fraction) / (fraction - start.fraction)))
    }
}
