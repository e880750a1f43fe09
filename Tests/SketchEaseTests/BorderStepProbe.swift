import Foundation
import Testing
import TestSupport
import FaceDetector
@testable import SketchEase

@Suite struct BorderStepProbe {
    @Test func probe() throws {
        guard ProcessInfo.processInfo.environment["PROBE"] != nil else { return }
        let detector = try OpenCVFaceDetector.centerFace(modelPath: TestAssets.model)
        let photos = ["grace_hopper.jpg", "astronaut.png", "group.jpg", "faces/2008_002506.jpg", "faces/2009_004587.jpg",
                      "faces/Tom_Cruise_avp_2014_4.jpg", "faces/bald_guys.jpg", "faces/2008_001322.jpg", "faces/2007_007763.jpg"]
        let styles = (ProcessInfo.processInfo.environment["STYLES"] ?? "pencil").split(separator: ",").map(String.init)
        for name in photos {
            let photo = try Photo.load(path: TestAssets.example(name))
            let faces = try detector.detect(in: photo, options: .init())
            let compositor = FaceCompositor(options: RenderOptions(region: RenderOptions.Region(rawValue: ProcessInfo.processInfo.environment["REGION"] ?? "head")!, tone: RenderOptions.Tone(rawValue: ProcessInfo.processInfo.environment["TONE"] ?? "photo")!))
            
            var line = "\(name) faces=\(faces.count) sizes=\(faces.map { Int(min($0.box.width, $0.box.height)) })"
            for style in styles {
                var ratios: [String] = []
                for face in faces {
                    let styled = [StyledFace(box: face.box, style: try .named(style), landmarks: face.landmarks)]
                    let out = try compositor.render(photo.rgb, faces: styled)
                    let mask = try compositor.regionMask(photo.rgb, faces: styled)
                    let r = try BorderStep.ratio(original: photo.rgb, output: out, region: mask)
                    ratios.append(r.map { String(format: "%.2f", $0) } ?? "-")
                }
                line += " \(style)=[\(ratios.joined(separator: ","))]"
            }
            print("PROBE", line)
        }
    }
}
