import CLibVips

// libvips' C structs share names with the Swift types of this module; these aliases name the C side.
typealias CVipsImagePointer = UnsafeMutablePointer<CLibVips.VipsImage>
typealias CVipsOperationPointer = UnsafeMutablePointer<CLibVips.VipsOperation>
