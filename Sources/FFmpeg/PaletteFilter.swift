import CAV

/// A libavfilter graph with a frame source named `in` (and, if asked, a second one named
/// `pal` for a palette), a filter description between them and a sink.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let paletteSource: UnsafeMutablePointer<AVFilterContext>?
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let output: UnsafeMutablePointer<AVFrame>
    let timeBase: AVRational
    private let path: String

    /// `input`: the frames' size, format and time base; `palette`: whether there is a `pal`
    /// source (16×16 BGRA palettes, as palettegen makes them); `outputFormat`: the sink's.
    init(_ description: String, width: Int, height: Int, format: AVPixelFormat, timeBase: Rational,
         palette: Bool, outputFormat: AVPixelFormat, path: String) throws {
        self.path = path
        func fail(_ what: String) -> MediaError { MediaError(path: path, reason: .other("share filter: \(what)")) }
        try MediaError.load(sk_avfilter_load, for: path)
        graph = sk_avfilter_graph_alloc()
        output = av_frame_alloc()
        var src: UnsafeMutablePointer<AVFilterContext>? = nil
        var pal: UnsafeMutablePointer<AVFilterContext>? = nil
        var snk: UnsafeMutablePointer<AVFilterContext>? = nil
        let arguments = "video_size=\(width)x\(height):pix_fmt=\(format.rawValue):time_base=\(timeBase):pixel_aspect=1/1"
        let paletteArguments = "video_size=16x16:pix_fmt=\(AV_PIX_FMT_BGRA.rawValue):time_base=\(timeBase):pixel_aspect=1/1"
        guard sk_avfilter_graph_create_filter(&src, sk_avfilter_get_by_name("buffer"), "in", arguments, graph) >= 0, let src,
              !palette || sk_avfilter_graph_create_filter(&pal, sk_avfilter_get_by_name("buffer"), "pal", paletteArguments, graph) >= 0,
              sk_avfilter_graph_create_filter(&snk, sk_avfilter_get_by_name("buffersink"), "out", nil, graph) >= 0, let snk else {
            sk_avfilter_graph_free(&graph)
            av_frame_free_pointer(output)
            throw fail("cannot be set up")
        }
        var formats: [Int32] = [outputFormat.rawValue]
        _ = av_opt_set_bin(snk, "pix_fmts", &formats, Int32(MemoryLayout<Int32>.size), AV_OPT_SEARCH_CHILDREN)
        var inputs = sk_avfilter_inout_alloc(), outputs = sk_avfilter_inout_alloc()
        defer { sk_avfilter_inout_free(&inputs); sk_avfilter_inout_free(&outputs) }
        outputs!.pointee.name = av_strdup("in"); outputs!.pointee.filter_ctx = src; outputs!.pointee.pad_idx = 0; outputs!.pointee.next = nil
        if let pal {
            let second = sk_avfilter_inout_alloc()!
            second.pointee.name = av_strdup("pal"); second.pointee.filter_ctx = pal; second.pointee.pad_idx = 0; second.pointee.next = nil
            outputs!.pointee.next = second
        }
        inputs!.pointee.name = av_strdup("out"); inputs!.pointee.filter_ctx = snk; inputs!.pointee.pad_idx = 0; inputs!.pointee.next = nil
        guard sk_avfilter_graph_parse(graph, description, &inputs, &outputs) >= 0,
              sk_avfilter_graph_config(graph) >= 0 else {
            sk_avfilter_graph_free(&graph)
            av_frame_free_pointer(output)
            throw fail("cannot be configured (\(description))")
        }
        source = src; paletteSource = pal; sink = snk
        self.timeBase = sk_av_buffersink_get_time_base(snk)
    }

    deinit {
        av_frame_free_pointer(output)
        sk_avfilter_graph_free(&graph)
    }

    /// Pushes a palette (once, before the frames it is for), then ends the palette input: the
    /// frames that follow all use it.
    func setPalette(_ palette: UnsafeMutablePointer<AVFrame>) throws {
        guard let paletteSource,
              sk_av_buffersrc_add_frame_flags(paletteSource, palette, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)) >= 0,
              sk_av_buffersrc_add_frame_flags(paletteSource, nil, 0) >= 0 else {
            throw MediaError(path: path, reason: .other("share filter: palette refused"))
        }
    }

    /// Pushes a frame (nil at the end) and hands each frame that comes out to `emit`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?, emit: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        guard sk_av_buffersrc_add_frame_flags(source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)) >= 0 else {
            throw MediaError(path: path, reason: .other("share filter: frame refused"))
        }
        while sk_av_buffersink_get_frame(sink, output) >= 0 {
            defer { av_frame_unref(output) }
            try emit(output)
        }
    }
}

private func av_frame_free_pointer(_ frame: UnsafeMutablePointer<AVFrame>) {
    var f: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&f)
}

/// Frames made fit for sharing (GIF, animated WebP): scaled to the settings' size and, for
/// GIF, turned to 8-bit palettes.
///
/// GIF: one palette per scene, not per frame. A palette made for each frame changed every
/// pixel's index from frame to frame, so the GIF encoder could not keep what stayed put: a 4 s
/// 640×480 clip of a still scene was 18 MB. With a scene's palette, applied with ordered
/// (Bayer) dithering whose pattern stays put, only what changes is encoded (its rectangle,
/// the rest transparent). A new scene (the picture changed a lot since the scene's first
/// frame, measured on a small grey copy) gets a new palette from its first frame.
final class ShareFilter {
    private let width: Int, height: Int, outputWidth: Int, outputHeight: Int
    private let timeBase: Rational
    private let gif: Bool
    private let path: String
    /// The current scene's graph: scale (and for GIF the palette's use).
    private var graph: FilterGraph?
    private let scaler = FrameScaler()
    private var sceneStart: GreyPlane?
    var outputTimeBase: AVRational { graph?.timeBase ?? timeBase.av }

    /// A scene ends where a frame differs from its first by this much (mean, of 255, on the
    /// grey copy): a cut or a large move, not faces moving in a still shot.
    static let sceneChange = 24.0

    init(width: Int, height: Int, outputWidth: Int, outputHeight: Int, timeBase: Rational, gif: Bool, path: String) throws {
        self.width = width; self.height = height; self.outputWidth = outputWidth; self.outputHeight = outputHeight
        self.timeBase = timeBase; self.gif = gif; self.path = path
        if !gif { graph = try FilterGraph("[in]" + scale + "format=yuv420p", width: width, height: height, format: AV_PIX_FMT_YUV420P,
                                          timeBase: timeBase, palette: false, outputFormat: AV_PIX_FMT_YUV420P, path: path) }
    }

    private var scale: String {
        outputWidth == width && outputHeight == height ? "" : "scale=\(outputWidth):\(outputHeight):flags=lanczos,"
    }

    /// Pushes a frame (`picture` the same frame as a `VideoFrame`, for finding scenes; nil at the
    /// end) and hands each frame that comes out to `emit`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?, picture: VideoFrame?,
                 emit: (UnsafeMutablePointer<AVFrame>, AVRational) throws -> Void) throws {
        if gif, let frame, let picture {
            let grey = scaler.grey(of: picture, maxSide: 64)
            if graph == nil || sceneStart.map({ Self.difference($0, grey) > Self.sceneChange }) ?? true {
                try finishScene(emit: emit)
                graph = try newScene(frame)
                sceneStart = grey
            }
        }
        guard let graph else { return }
        let base = graph.timeBase
        try graph.convert(frame) { try emit($0, base) }
    }

    private func finishScene(emit: (UnsafeMutablePointer<AVFrame>, AVRational) throws -> Void) throws {
        guard let graph else { return }
        let base = graph.timeBase
        try graph.convert(nil) { try emit($0, base) }
        self.graph = nil
    }

    /// A palette made from `frame` (scaled as the output is), and the graph that uses it.
    private func newScene(_ frame: UnsafeMutablePointer<AVFrame>) throws -> FilterGraph {
        let maker = try FilterGraph("[in]" + scale + "palettegen=stats_mode=single:max_colors=128", width: width, height: height,
                                    format: AV_PIX_FMT_YUV420P, timeBase: timeBase, palette: false,
                                    outputFormat: AV_PIX_FMT_BGRA, path: path)
        var palette: UnsafeMutablePointer<AVFrame>? = nil
        defer { av_frame_free(&palette) }
        try maker.convert(frame) { made in if palette == nil { palette = av_frame_clone(made) } }
        if palette == nil { try maker.convert(nil) { made in if palette == nil { palette = av_frame_clone(made) } } }
        guard let palette else { throw MediaError(path: path, reason: .other("share filter: no palette made")) }
        palette.pointee.pts = frame.pointee.pts
        let scaled = scale.isEmpty ? "[in]" : "[in]" + scale.dropLast() + "[scaled];[scaled]"
        let user = try FilterGraph(scaled + "[pal]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle",
                                   width: width, height: height, format: AV_PIX_FMT_YUV420P, timeBase: timeBase,
                                   palette: true, outputFormat: AV_PIX_FMT_PAL8, path: path)
        try user.setPalette(palette)
        return user
    }

    /// Mean absolute difference of two grey copies of one size.
    static func difference(_ a: GreyPlane, _ b: GreyPlane) -> Double {
        guard a.pixels.count == b.pixels.count, !a.pixels.isEmpty else { return .infinity }
        var total = 0
        for i in a.pixels.indices { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    /// Ends the stream: the last frames come out.
    func finish(emit: (UnsafeMutablePointer<AVFrame>, AVRational) throws -> Void) throws {
        try finishScene(emit: emit)
    }
}
