/// An 8-bit sRGB colour, written `#rrggbb`.
public struct RGBColour: Equatable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) { self.red = red; self.green = green; self.blue = blue }

    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        red = UInt8(v >> 16 & 0xff); green = UInt8(v >> 8 & 0xff); blue = UInt8(v & 0xff)
    }

    public var hex: String {
        "#" + [red, green, blue].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    public var components: [Double] { [Double(red), Double(green), Double(blue)] }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
