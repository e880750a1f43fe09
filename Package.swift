// swift-tools-version: 6.0
import PackageDescription

// OpenCV is linked library by library: the pkg-config route pulls in ~55 libraries
// and triples start-up time. Only the modules the face detector uses are named.
let openCVLibraries: [LinkerSetting] = ["opencv_core", "opencv_imgproc", "opencv_objdetect", "opencv_dnn", "m"]
    .map { .linkedLibrary($0) }

// libavdevice and libavfilter are not linked: CAV loads them when first needed (a camera, a GIF
// share), as linked they bring ~70 more libraries to every run.
let ffmpegLibraries: [LinkerSetting] = ["avformat", "avcodec", "swscale", "swresample", "avutil", "m"]
    .map { .linkedLibrary($0) }

let package = Package(
    name: "SketchEase",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "sketchease", targets: ["SketchEaseCLI"]),
        .library(name: "SketchEase", targets: ["SketchEase"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        // libvips and glib. pkg-config is asked for gobject-2.0 only (glib's include paths):
        // vips.pc drags in OpenEXR's `-pthread`, which SwiftPM refuses with a warning on every
        // build; libvips' own headers are in the default path and the module map links it.
        .systemLibrary(
            name: "CLibVips",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libvips-dev"])]
        ),
        // A tiny C shim over libvips' generic operation API: Swift cannot call variadic functions.
        .target(name: "CVips", dependencies: ["CLibVips"]),
        // Swift over libvips: an immutable, reference-owning VipsImage and typed errors.
        .target(name: "Vips", dependencies: ["CVips"]),
        // extern "C" over OpenCV's DNN and cascade face detectors; catches every C++ exception.
        .target(
            name: "CFaceDetect",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: openCVLibraries
        ),
        .target(name: "FaceDetector", dependencies: ["CFaceDetect", "Vips"]),
        // extern "C" over OpenCV for what libvips has no operation for: region mattes (GrabCut,
        // guided filter) and strokes along the edge tangent flow; catches every C++ exception.
        // No fused multiply-adds anywhere: the AVX2 paths draw the same bytes as the plain loops
        // only while both round every product and sum (VectorInstructionTests). Optimised in a
        // debug build too: at -O0 the drawing ran several times slower, and the tests' Live server
        // (`serve --live` from the debug build, in headless Chromium) drew 3 frames a second on a
        // slower 2-core machine, too few for its faces to follow a panning camera.
        .target(
            name: "CPortrait",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-ffp-contract=off", "-O2"])],
            linkerSettings: ["opencv_core", "opencv_imgproc"].map { .linkedLibrary($0) }
        ),
        .target(name: "Filters", dependencies: ["Vips", "CPortrait"]),
        .target(name: "SketchEase", dependencies: ["Vips", "FaceDetector", "Filters"]),
        // FFmpeg's libraries (Debian's libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev,
        // libavdevice-dev, libavfilter-dev, libswresample-dev); headers in the system's include path.
        .systemLibrary(name: "CLibAV"),
        // A small C shim over FFmpeg: error macros, log capture, display matrix, pixel loops.
        // Each library linked is named (pkg-config lists only libavdevice, the rest private to it).
        .target(name: "CAV", dependencies: ["CLibAV"], linkerSettings: ffmpegLibraries),
        // Swift over FFmpeg: read (demux, decode) and write (encode, mux) media files and devices.
        .target(name: "FFmpeg", dependencies: ["CAV"]),
        // Faces in motion: tracking, smoothing, styled frames, the clip pipeline.
        .target(name: "Video", dependencies: ["FFmpeg", "SketchEase"]),
        // `sketchease serve`: the local web app (Hummingbird), its JSON API over the model and its
        // browser code (plain HTML/CSS/JS modules, shipped as resources).
        .target(
            name: "WebApp",
            dependencies: [
                "SketchEase",
                "Video",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Site")]
        ),
        .executableTarget(
            name: "SketchEaseCLI",
            dependencies: [
                "SketchEase",
                "Video",
                "WebApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer target over untrusted input (scripts/fuzz.sh); a replay tool in normal builds.
        .executableTarget(name: "SketchEaseFuzz", dependencies: ["SketchEase", "Video", "FFmpeg"]),
        // Group photos with known faces for the benchmark, and their scoring (make bench).
        .executableTarget(name: "GroupPhotos", dependencies: ["TestSupport", "FaceDetector", "Vips"], path: "bench/GroupPhotos"),
        // Paths to the example photos and model, temporary folders, synthetic images, group
        // photos with known faces.
        .target(name: "TestSupport", dependencies: ["Vips", "FaceDetector"], path: "Tests/TestSupport"),
        .testTarget(name: "VipsTests", dependencies: ["Vips", "TestSupport"]),
        .testTarget(name: "FaceDetectorTests", dependencies: ["FaceDetector", "Vips", "TestSupport"]),
        .testTarget(name: "FiltersTests", dependencies: ["Filters", "Vips", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "SketchEaseTests", dependencies: ["SketchEase", "TestSupport"]),
        .testTarget(name: "VideoTests", dependencies: ["Video", "FFmpeg", "SketchEase", "TestSupport"]),
        // Runs the built `sketchease` binary end to end.
        .testTarget(name: "SketchEaseCLITests", dependencies: ["SketchEaseCLI", "SketchEase", "TestSupport"]),
        // Runs `sketchease serve` and drives it over HTTP and in Debian's chromium (WebDriver).
        .testTarget(name: "WebAppTests", dependencies: ["WebApp", "SketchEaseCLI", "SketchEase", "Video", "TestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
