import Vips

/// Stickers on facial features: googly eyes, a clown nose, a moustache, a beard — or your own
/// pictures from a folder.
///
/// Each sticker is sized by its feature (the distance between the eyes, the mouth's width),
/// turned with the line between the eyes, and drawn with its alpha over the photo. Faces
/// without landmarks (the cascade fallback) get landmarks at their typical place in the box.
public struct MaskFilter: SketchFilter {
    public let id = "mask"
    public let name = "Mask"
    public let summary = "Stickers on eyes, nose, mouth and chin that follow the face's landmarks and tilt."
    public let parameters: [FilterParameter] = [
        FilterParameter("features", .choices(options: FacialFeature.allCases.map(\.rawValue),
                                             defaultValue: ["eyes", "nose", "mouth"]),
                        "Which features get a sticker."),
        FilterParameter("eye-scale", .number(range: 0.2...4, defaultValue: 1),
                        "Size of each eye sticker (1 = 0.62 of the distance between the eyes)."),
        FilterParameter("nose-scale", .number(range: 0.2...4, defaultValue: 1),
                        "Size of the nose sticker (1 = 0.42 of the distance between the eyes)."),
        FilterParameter("mouth-scale", .number(range: 0.2...4, defaultValue: 1),
                        "Size of the mouth sticker (1 = 1.7 mouth widths)."),
        FilterParameter("beard-scale", .number(range: 0.2...4, defaultValue: 1),
                        "Size of the beard sticker (1 = 2.1 mouth widths)."),
        FilterParameter("stickers", .path(defaultValue: ""),
                        "Folder with eye.png, nose.png, mouth.png, beard.png (with alpha) to use instead of the built-in drawings; missing ones stay built-in."),
    ]

    public init() {}

    /// Stickers leave the rest of the crop untouched, so the face ellipse would only fade them.
    public var blendsThroughFaceMask: Bool { false }

    public func apply(to crop: VipsImage, settings: FilterSettings, context: FilterContext) throws -> VipsImage {
        let features = settings.list("features").compactMap(FacialFeature.init(rawValue:))
        let folder = settings.text("stickers")
        var stickers: [(StickerPlacement, VipsImage)] = []
        for face in context.faces {
            let frame = LandmarkFrame(landmarks: face.landmarks)
                ?? LandmarkFrame(estimatedIn: (face.x, face.y, face.width, face.height))
            // Beard first, so the moustache and nose lie on top of it.
            for feature in features.sorted(by: { drawingOrder($0) < drawingOrder($1) }) {
                let sticker = try StickerLibrary.sticker(for: feature, folder: folder)
                let scale = settings.number(feature.scaleParameter)
                for placement in StickerPlacement.placements(for: feature, in: frame, scale: scale) {
                    stickers.append((placement, sticker))
                }
            }
        }
        return try StickerPlacement.draw(stickers, over: crop)
    }

    private func drawingOrder(_ feature: FacialFeature) -> Int {
        switch feature {
        case .beard: 0
        case .mouth: 1
        case .nose: 2
        case .eyes: 3
        }
    }
}
