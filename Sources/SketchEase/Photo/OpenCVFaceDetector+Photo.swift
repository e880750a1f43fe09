extension OpenCVFaceDetector {
    /// The one way every command finds the faces in a photo (batch, detect, report, edit,
    /// plans), so they all see the same faces with the same numbers: in the decoded photo (a
    /// coarse pass on a copy at most `options.maxSide` long, then tiles of the photo where faces
    /// of `options.minFace` pixels need them; see `DetectionOptions`), boxes and landmarks in
    /// pixels of the upright photo, faces in reading order. A pixel error names the photo's file.
    ///
    /// The network's working memory (~65 MB) is handed back when the photo is done: the next
    /// photo may need other sizes. (A clip keeps its network from frame to frame instead: its
    /// frames are one size, and building a network costs 150–250 ms.)
    public func detect(in photo: Photo, options: DetectionOptions) throws -> [DetectedFace] {
        defer { releaseNetworks() }
        do {
            return try detect(in: photo.rgb, options: options).inReadingOrder
        } catch let error as VipsError {
            throw PhotoError(path: photo.path ?? "photo", reason: .corrupt(error.message))
        }
    }
}
