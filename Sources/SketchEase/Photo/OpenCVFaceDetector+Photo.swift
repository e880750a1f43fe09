extension OpenCVFaceDetector {
    /// The one way every command finds the faces in a photo file (batch, detect, report, edit,
    /// plans), so they all see the same faces with the same numbers: detection on a
    /// shrink-on-load copy at most `options.maxSide` long, boxes and landmarks in pixels of the
    /// upright photo (`fullSize`, from `Photo.inspect`), faces in reading order.
    public func detect(inFile path: String, fullSize: (width: Int, height: Int),
                       options: DetectionOptions) throws -> [DetectedFace] {
        let copy = try Photo.detectionCopy(path: path, maxSide: options.maxSide)
        do {
            return try detect(in: copy, options: options, fullSize: fullSize).inReadingOrder
        } catch let error as VipsError {
            throw PhotoError(path: path, reason: .corrupt(error.message))
        }
    }

    /// The faces in a loaded photo, as `detect(inFile:)` finds them for its file; a photo made
    /// in memory is searched on a reduced copy of its pixels.
    public func detect(in photo: Photo, options: DetectionOptions) throws -> [DetectedFace] {
        if let path = photo.path {
            return try detect(inFile: path, fullSize: (photo.width, photo.height), options: options)
        }
        do {
            return try detect(in: photo.detectionCopy(maxSide: options.maxSide), options: options,
                              fullSize: (photo.width, photo.height)).inReadingOrder
        } catch let error as VipsError {
            throw PhotoError(path: "photo", reason: .corrupt(error.message))
        }
    }
}
