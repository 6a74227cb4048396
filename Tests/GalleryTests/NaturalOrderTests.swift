import Foundation
import Testing

@testable import Gallery

@Suite("Natural name order")
struct NaturalOrderTests {
    static func ascii(_ a: String, _ b: String) -> ComparisonResult {
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in asciiNaturalComparison(x, y) } }
    }

    @Test("the byte-by-byte order of ASCII names is Foundation's, on names a camera writes and on random ones")
    func sameAsFoundation() {
        var generator = SystemRandomNumberGenerator()
        let alphabets: [[UInt8]] = [
            Array("0123456789aAbBzZ_-. [".utf8), Array("0010aA".utf8), (0...127).map { UInt8($0) },
        ]
        var pairs: [(String, String)] = [
            ("IMG_2.JPG", "IMG_10.JPG"), ("007", "7"), ("a07b", "a7a"), ("_", "a"), ("_", "A"), ("[", "A"), ("Z", "a"),
            ("x", "x1"), ("1.5", "1.10"), ("99999999999999999999", "100000000000000000000"), ("", ""), ("", "0"),
        ]
        for round in 0..<100_000 {
            let alphabet = alphabets[round % alphabets.count]
            func name() -> String {
                String(decoding: (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            }
            let a = name()
            // A third of the pairs share a beginning, where the interesting cases are.
            let b = round % 3 == 0 ? String(a.prefix(Int.random(in: 0...a.count, using: &generator))) + name() : name()
            pairs.append((a, b))
        }
        var differences: [String] = []
        for (a, b) in pairs where Self.ascii(a, b) != foundationNaturalComparison(a, b) {
            differences.append("\(a.debugDescription) vs \(b.debugDescription)")
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    @Test("names sort by number value and without case; names equal that way keep a fixed order; other scripts go to Foundation")
    func order() {
        let names = ["img_10.jpg", "IMG_2.jpg", "img_01.jpg", "IMG_1.jpg", "Été 2.jpg", "été 10.jpg", "b.jpg", "A.jpg"]
        #expect(names.sorted(by: naturalOrder) == ["A.jpg", "b.jpg", "Été 2.jpg", "été 10.jpg", "IMG_1.jpg", "img_01.jpg", "IMG_2.jpg", "img_10.jpg"])
    }
}
