import Testing

@testable import Imaging

/// Images whose rows gd reads from one block of memory (``PixelBlock``).
@Suite("Pixel blocks")
struct PixelBlockTests {
    @Test("gd and the block see the same pixels, for small (malloc) and large (mapped) images",
          arguments: [(3, 2), (700, 500)])
    func sharedPixels(width: Int, height: Int) throws {
        var image = try Image(width: width, height: height)
        let block = image.contiguousPixels
        let pixels = try #require(block)
        let blank = image.pixel(x: width - 1, y: height - 1)
        #expect(blank == (0, 0, 0, 255), "a blank image is opaque black")
        pixels[(height - 1) * width + width - 1] = Image.gdColor(red: 10, green: 20, blue: 30, alpha: 255)
        let written = image.pixel(x: width - 1, y: height - 1)
        #expect(written == (10, 20, 30, 255))
        image.fill(x: 1, y: 1, width: 1, height: 1, red: 200, green: 100, blue: 50)
        #expect(pixels[width + 1] == Image.gdColor(red: 200, green: 100, blue: 50, alpha: 255))
        // gd's own operations on the rows: encoding, then decoding what it wrote.
        let png = try image.encoded(as: .png)
        let decoded = try Image.decode(png).pixel(x: 1, y: 1)
        #expect(decoded == (200, 100, 50, 255))
    }

    @Test("a blank image made from memory another picture let go of is black again")
    func reusedMemoryIsCleared() throws {
        let (width, height) = (900, 700)  // mapped: above PixelBlock.mappingThreshold
        do {
            var white = try Image(width: width, height: height)
            white.fill(x: 0, y: 0, width: width, height: height, red: 255, green: 255, blue: 255)
        }
        let blank = try Image(width: width, height: height)
        let block = blank.contiguousPixels
        let pixels = try #require(block)
        var any: Int32 = 0
        for index in 0..<width * height { any |= pixels[index] }
        #expect(any == 0)
    }
}
