import CAV

/// Reduced RGB copies of frames (for face detection), through libswscale. Keeps its scaling
/// context between frames of one size; use one per thread.
public final class FrameScaler {
    private var context: OpaquePointer?
    private var greyContext: OpaquePointer?

    public init() {}

    deinit {
        sws_freeContext(context)
        sws_freeContext(greyContext)
    }

    /// The frame's luma (Y') alone, shrunk (area-averaged) so its longest side is at most
    /// `maxSide`: what motion is measured on.
    public func grey(of frame: VideoFrame, maxSide: Int) -> GreyPlane {
        let scale = min(1, Double(maxSide) / Double(max(frame.width, frame.height)))
        let width = max(8, Int((Double(frame.width) * scale).rounded()))
        let height = max(8, Int((Double(frame.height) * scale).rounded()))
        let source = frame.frame
        greyContext = sws_getCachedContext(greyContext, Int32(frame.width), Int32(frame.height), AV_PIX_FMT_GRAY8,
                                           Int32(width), Int32(height), AV_PIX_FMT_GRAY8, SWS_AREA, nil, nil, nil)
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            var planes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width), 0, 0, 0]
            var src: [UnsafePointer<UInt8>?] = [UnsafePointer(source.pointee.data.0), nil, nil, nil]
            var srcStrides: [Int32] = [source.pointee.linesize.0, 0, 0, 0]
            _ = sws_scale(greyContext, &src, &srcStrides, 0, Int32(frame.height), &planes, &strides)
        }
        return GreyPlane(pixels: pixels, width: width, height: height, scale: Double(width) / Double(frame.width))
    }

    /// The whole frame as packed 8-bit RGB, shrunk (area-averaged) so its longest side is at
    /// most `maxSide`.
    public func rgb(of frame: VideoFrame, maxSide: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        let scale = min(1, Double(maxSide) / Double(max(frame.width, frame.height)))
        let width = max(1, Int((Double(frame.width) * scale).rounded()))
        let height = max(1, Int((Double(frame.height) * scale).rounded()))
        let source = frame.frame
        context = sws_getCachedContext(context, Int32(frame.width), Int32(frame.height), AV_PIX_FMT_YUV420P,
                                       Int32(width), Int32(height), AV_PIX_FMT_RGB24, SWS_AREA, nil, nil, nil)
        let space = Self.swsColourSpace(source.pointee.colorspace, height: frame.height)
        let fullRange: Int32 = source.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        sws_setColorspaceDetails(context, sws_getCoefficients(space), fullRange, sws_getCoefficients(space), 1, 0, 1 << 16, 1 << 16)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { out in
            var planes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 3), 0, 0, 0]
            withUnsafePointer(to: source.pointee.data) { data in
                withUnsafePointer(to: source.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            _ = sws_scale(context, src, srcStride, 0, Int32(frame.height), &planes, &strides)
                        }
                    }
                }
            }
        }
        return (pixels, width, height)
    }

    /// libswscale's colour-space number for a frame's tag; unspecified is BT.709 from 720 rows up.
    static func swsColourSpace(_ space: AVColorSpace, height: Int) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        default: height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }
}
