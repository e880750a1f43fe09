extension OpenCVFaceDetector {
    /// The faces in a loaded photo, in its upright pixel coordinates, found on a copy at most
    /// `options.maxSide` pixels long. A pixel error names the photo's file.
    public func detect(in photo: Photo, options: DetectionOptions) throws -> [DetectedFace] {
        do {
            return try detect(in: photo.detectionCopy(maxSide: options.maxSide), options: options,
                              fullSize: (photo.width, photo.height))
        } catch let error as VipsError {
            throw PhotoError(path: photo.path ?? "photo", reason: .corrupt(error.message))
        }
    }
}
