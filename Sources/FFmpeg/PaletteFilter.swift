import CAV

/// Frames to 8-bit palettes for GIF, through a libavfilter graph: a palette made for each
/// frame (`palettegen`, one histogram a frame) and applied with ordered (Bayer) dithering,
/// whose pattern stays put from frame to frame where error diffusion would crawl.
final class PaletteFilter {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let output: UnsafeMutablePointer<AVFrame>
    let timeBase: AVRational

    init(width: Int, height: Int, timeBase: Rational, colourSpace: Int32, colourRange: Int32, path: String) throws {
        graph = avfilter_graph_alloc()
        output = av_frame_alloc()
        func fail(_ what: String) -> MediaError { MediaError(path: path, reason: .other("GIF palette filter: \(what)")) }
        var src: UnsafeMutablePointer<AVFilterContext>? = nil
        var snk: UnsafeMutablePointer<AVFilterContext>? = nil
        let arguments = "video_size=\(width)x\(height):pix_fmt=\(AV_PIX_FMT_YUV420P.rawValue):time_base=\(timeBase):pixel_aspect=1/1"
        guard avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in", arguments, nil, graph) >= 0, let src,
              avfilter_graph_create_filter(&snk, avfilter_get_by_name("buffersink"), "out", nil, nil, graph) >= 0, let snk else {
            avfilter_graph_free(&graph)
            throw fail("cannot be set up")
        }
        var formats: [Int32] = [AV_PIX_FMT_PAL8.rawValue]
        _ = av_opt_set_bin(snk, "pix_fmts", &formats, Int32(MemoryLayout<Int32>.size), AV_OPT_SEARCH_CHILDREN)
        var inputs = avfilter_inout_alloc(), outputs = avfilter_inout_alloc()
        defer { avfilter_inout_free(&inputs); avfilter_inout_free(&outputs) }
        outputs!.pointee.name = av_strdup("in"); outputs!.pointee.filter_ctx = src; outputs!.pointee.pad_idx = 0; outputs!.pointee.next = nil
        inputs!.pointee.name = av_strdup("out"); inputs!.pointee.filter_ctx = snk; inputs!.pointee.pad_idx = 0; inputs!.pointee.next = nil
        let description = "split[a][b];[a]palettegen=stats_mode=single:max_colors=256[p];[b][p]paletteuse=new=1:dither=bayer:bayer_scale=3"
        guard avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil) >= 0,
              avfilter_graph_config(graph, nil) >= 0 else {
            avfilter_graph_free(&graph)
            throw fail("cannot be configured")
        }
        source = src; sink = snk
        self.timeBase = av_buffersink_get_time_base(snk)
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = output
        av_frame_free(&f)
        avfilter_graph_free(&graph)
    }

    /// Pushes a frame (nil at the end) and hands each paletted frame that comes out to `emit`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?, emit: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        guard av_buffersrc_add_frame_flags(source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)) >= 0 else {
            throw MediaError(path: "GIF palette filter", reason: .other("frame refused"))
        }
        while av_buffersink_get_frame(sink, output) >= 0 {
            defer { av_frame_unref(output) }
            try emit(output)
        }
    }
}
