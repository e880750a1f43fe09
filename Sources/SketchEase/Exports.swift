// The model's API speaks in faces, filters and images; re-export those modules for its users.
@_exported import FaceDetector
@_exported import Filters
@_exported import Vips
