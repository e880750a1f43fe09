extension EditHistory {
    /// Fresh detections as faces for a `.redetect` edit, in reading order and kept to the photo:
    /// a detection overlapping a current face (intersection over union at least `matchIoU`)
    /// keeps that face's id and style; the others get new ids.
    public func redetected(_ detections: [DetectedFace], matchIoU: Double = 0.4) -> [EditableFace] {
        var next = nextFaceID
        var taken = Set<Int>()
        return detections.onPhoto(imageSize).map { d in
            let match = faces.filter { !taken.contains($0.id) }
                .max { $0.box.iou(d.box) < $1.box.iou(d.box) }
            if let match, match.box.iou(d.box) >= matchIoU {
                taken.insert(match.id)
                return EditableFace(id: match.id, box: d.box, landmarks: d.landmarks, style: match.style)
            }
            defer { next += 1 }
            return EditableFace(id: next, box: d.box, landmarks: d.landmarks)
        }
    }
}
