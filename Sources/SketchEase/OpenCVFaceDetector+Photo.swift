extension OpenCVFaceDetector {
    /// The faces in a loaded photo, in its upright pixel coordinates (see `DetectionOptions`:
    /// a coarse pass on a copy at most `maxSide` long, then tiles of the decoded photo where
    /// faces of `minFace` pixels need them). A pixel error names the photo's file.
    public func detect(in photo: Photo, options: DetectionOptions) throws -> [DetectedFace] {
        do {
            return try detect(in: photo.rgb, options: options)
        } catch let error as VipsError {
            throw PhotoError(path: photo.path ?? "photo", reason: .corrupt(error.message))
        }
    }
}
