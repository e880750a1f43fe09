extension String {
    /// The folder part of a path ("trip/beach.png" → "trip", "/a" → "/", "a" → ""), as
    /// `NSString.deletingLastPathComponent` gives it. That method crashes (Swift 6.3's Foundation
    /// on Linux) on paths of one or two characters such as "a" or "./", which people do type, so
    /// SketchEase asks here instead.
    public var parentPath: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        var parent = path[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        return String(parent)
    }
}
