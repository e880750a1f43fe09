/// A face could not be drawn as asked.
public enum RenderError: Error, CustomStringConvertible, Sendable {
    /// A face whose region reaches over more pixels than the drawing code draws
    /// (`PortraitOperations.largestSide` on a side): a box drawn by hand across a panorama.
    case faceTooLarge(box: FaceBox, reach: (width: Int, height: Int), largest: Int)

    public var description: String {
        switch self {
        case .faceTooLarge(let box, let reach, let largest):
            "the face box \(Int(box.width.rounded())) × \(Int(box.height.rounded())) at (\(Int(box.x.rounded())), \(Int(box.y.rounded()))) "
                + "would be drawn over \(reach.width) × \(reach.height) pixels, more than the \(largest) on a side a face can be: "
                + "draw a smaller box"
        }
    }
}
