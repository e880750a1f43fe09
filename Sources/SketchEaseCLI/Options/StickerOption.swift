import ArgumentParser
import SketchEase

/// `--stickers DIR`: the mask style's `stickers` parameter, checked before any photo is opened.
enum StickerOption {
    static func apply(folder: String, to style: FaceStyle, registry: FilterRegistry = .standard) throws -> FaceStyle {
        let mask = MaskFilter()
        guard style.filterID == mask.id else {
            throw ValidationError("--stickers needs the mask style (-f \(mask.id)); the chosen style is \(style.filterID)")
        }
        do {
            try StickerLibrary.checkFolder(folder)
            var values = style.settings.values
            values["stickers"] = .text(folder)
            return FaceStyle(filterID: style.filterID, settings: try registry.settings(for: style.filterID, values: values))
        } catch let error as FilterError {
            throw ValidationError(error.description)
        }
    }
}
