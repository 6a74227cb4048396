// JSON string literals for frames.json and the pages' inline data.

/// A JSON string literal; `<`, `>` and `&` are escaped too, so the text is safe inside HTML.
func jsonString(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendJSONString(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// Appends `text` as a JSON string literal to `output`: quotes, backslashes and control
/// characters are escaped, and so are `<`, `>`, `&`, U+2028 and U+2029, so the text is also
/// safe inside HTML and in a script.
func appendJSONString(_ text: String, to output: inout [UInt8]) {
    var text = text
    output.append(UInt8(ascii: "\""))
    text.withUTF8 { utf8 in
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                output += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
            case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                output += Array((utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)  // line and paragraph separators
                index += 2
            default:
                output.append(byte)
            }
            index += 1
        }
    }
    output.append(UInt8(ascii: "\""))
}
