/// The gd pixels of a grid of colours, every 15 levels of red, green and blue, with alpha 0x3F:
/// what the colour tests convert two ways and compare.
func colourGrid() -> [Int32] {
    var pixels: [Int32] = []
    for r in stride(from: 0, through: 255, by: 15) {
        for g in stride(from: 0, through: 255, by: 15) {
            for b in stride(from: 0, through: 255, by: 15) { pixels.append(Int32(0x3F00_0000 | r << 16 | g << 8 | b)) }
        }
    }
    return pixels
}

/// The largest difference of one colour channel between pixels of `a` and `b` at the same
/// place, and whether every pixel of both kept the grid's alpha.
func worstChannelDifference(_ a: [Int32], _ b: [Int32]) -> (levels: Int, alphaKept: Bool) {
    var worst = 0
    var alphaKept = a.count == b.count
    for (x, y) in zip(a, b) {
        alphaKept = alphaKept && x >> 24 == 0x3F && y >> 24 == 0x3F
        for shift in [0, 8, 16] { worst = max(worst, abs(Int((x >> Int32(shift)) & 0xFF) - Int((y >> Int32(shift)) & 0xFF))) }
    }
    return (worst, alphaKept)
}
