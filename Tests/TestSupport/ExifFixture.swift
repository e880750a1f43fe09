/// Builds small EXIF blobs by hand, so tests need no photo with real GPS data.
public enum ExifFixture {
    /// "Exif\0\0" + a little-endian TIFF block whose GPS IFD holds a latitude.
    public static func gpsBlob(latitudeDegrees: UInt32 = 48) -> [UInt8] {
        var b: [UInt8] = Array("Exif".utf8) + [0, 0]
        let tiffStart = b.count
        func u16(_ v: Int) { b += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
        func u32(_ v: Int) { b += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24 & 0xff)] }
        b += Array("II".utf8); u16(42); u32(8)
        // IFD0: one entry, GPSInfo -> offset 26
        u16(1); u16(0x8825); u16(4); u32(1); u32(26); u32(0)
        // GPS IFD at 26: LatitudeRef "N", Latitude -> three rationals at offset 56
        u16(2)
        u16(0x0001); u16(2); u32(2); b += [UInt8(ascii: "N"), 0, 0, 0]
        u16(0x0002); u16(5); u32(3); u32(56)
        u32(0)
        precondition(b.count - tiffStart == 56)
        u32(Int(latitudeDegrees)); u32(1); u32(30); u32(1); u32(0); u32(1)
        return b
    }
}
