import CAV
import Foundation
import Synchronization

/// Reads a media file or device: demuxes it, decodes its video stream into upright 4:2:0
/// frames carrying their timestamps, and hands the other streams' packets out for copying.
///
/// Damage met on the way (packets that do not decode, frames marked corrupt, timestamps out
/// of order) is counted in `damage` rather than thrown: a clip damaged in the middle is read
/// to its end.
public final class MediaReader: @unchecked Sendable {
    public let source: MediaSource
    public var path: String { source.path }
    public let streams: [MediaStream]
    public let video: VideoStreamInfo

    /// What went wrong while reading, so far.
    public struct Damage: Sendable, Equatable {
        /// Packets the decoder refused.
        public var undecodablePackets = 0
        /// Frames the decoder gave out marked as damaged (concealed errors).
        public var damagedFrames = 0
        /// Frames whose timestamp was missing or not after the one before, and was repaired.
        public var repairedTimestamps = 0
        /// The stream ended early with a read error (a truncated file).
        public var readError: String?
        /// When (seconds) the first damage was met.
        public var firstAt: Double?
        /// FFmpeg's last complaint about the data.
        public var detail: String?

        public var isEmpty: Bool { undecodablePackets == 0 && damagedFrames == 0 && readError == nil }

        public init() {}
    }
    public private(set) var damage = Damage()

    /// Frames handed out so far.
    public private(set) var framesRead = 0

    let format: UnsafeMutablePointer<AVFormatContext>
    private let decoder: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let decoded: UnsafeMutablePointer<AVFrame>
    private var ready: [VideoFrame] = []
    private var readyStart = 0
    private var draining = false
    private var finished = false
    private var lastPts: Int64?
    private var lastDuration: Int64 = 0
    private var firstPts: Int64?
    private var converter: OpaquePointer?
    private let pixelLimit: Int
    private var framesDecoded = 0
    /// Set to stop (a live recording ended by the user): the next read flushes and ends.
    private let stopRequested = Atomic<Bool>(false)

    /// Opens `source`, finds its video stream and opens a decoder for it. Throws a
    /// `MediaError` naming the file when it is missing, empty, not media, has no video stream,
    /// a codec this FFmpeg cannot decode, or frames above `pixelLimit` pixels (0 = no limit).
    public init(_ source: MediaSource, pixelLimit: Int = 0, threads: Int = 0) throws {
        sk_av_start()
        self.source = source
        self.pixelLimit = pixelLimit
        if !source.isLive { try Self.checkReadable(source.path) }
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        var options: OpaquePointer? = nil
        for (key, value) in source.options { av_dict_set(&options, key, value, 0) }
        defer { av_dict_free(&options) }
        // A camera or a test source: their input formats are libavdevice's, loaded now.
        if source.format != nil { try MediaError.load(sk_av_register_devices, for: source.path) }
        let inputFormat = source.format.flatMap { av_find_input_format($0) }
        if let name = source.format, inputFormat == nil {
            throw MediaError(path: source.path, reason: .other("FFmpeg has no input format '\(name)'"))
        }
        _ = sk_av_take_errors(nil, 0)
        var status = avformat_open_input(&context, source.path, inputFormat, &options)
        guard status >= 0, let context else {
            var detail = [CChar](repeating: 0, count: 512)
            let logged = sk_av_take_errors(&detail, detail.count) > 0 ? MediaError.string(detail) : nil
            throw MediaError(path: source.path, reason: Self.openFailure(status, path: source.isLive ? nil : source.path, logged: logged))
        }
        var owned: UnsafeMutablePointer<AVFormatContext>? = context
        if !source.isLive, let photo = Self.stillImageFormat(context) {
            // FFmpeg reads a photo as a one-frame video: say what it is instead.
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .notMedia("this is a \(photo) photo: use `sketchease batch`"))
        }
        status = avformat_find_stream_info(context, nil)
        guard status >= 0 else {
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .corrupt(MediaError.text(status)))
        }
        let streams = (0..<Int(context.pointee.nb_streams)).map { Self.describe(context.pointee.streams[$0]!, index: $0) }
        guard let chosen = Self.bestVideoStream(context, streams) else {
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: streams.isEmpty ? .notMedia("no streams") : .noVideoStream)
        }
        let stream = context.pointee.streams[chosen]!
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .unsupportedCodec(streams[chosen].codec))
        }
        var codecContext = avcodec_alloc_context3(codec)
        guard let decoderContext = codecContext else {
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .other("out of memory"))
        }
        avcodec_parameters_to_context(decoderContext, parameters)
        decoderContext.pointee.thread_count = Int32(threads)
        decoderContext.pointee.pkt_timebase = stream.pointee.time_base
        status = avcodec_open2(decoderContext, codec, nil)
        guard status >= 0 else {
            avcodec_free_context(&codecContext)
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .unsupportedCodec("\(streams[chosen].codec): \(MediaError.text(status))"))
        }
        let storedWidth = Int(parameters.pointee.width), storedHeight = Int(parameters.pointee.height)
        if storedWidth <= 0 || storedHeight <= 0 {
            avcodec_free_context(&codecContext)
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .corrupt("the video stream gives no picture size"))
        }
        if pixelLimit > 0, storedWidth * storedHeight > pixelLimit {
            avcodec_free_context(&codecContext)
            avformat_close_input(&owned)
            throw MediaError(path: source.path, reason: .tooLarge(width: storedWidth, height: storedHeight, limit: pixelLimit))
        }
        let turns = Int(sk_stream_quarter_turns(stream))
        let evenWidth = (storedWidth + 1) & ~1, evenHeight = (storedHeight + 1) & ~1
        let timeBase = Rational(stream.pointee.time_base)
        var rate = Rational(stream.pointee.avg_frame_rate)
        if !rate.isValid { rate = Rational(stream.pointee.r_frame_rate) }
        if !rate.isValid { rate = Rational(25, 1) }
        var duration: Double? = nil
        if stream.pointee.duration > 0, stream.pointee.duration != AVCode.noTimestamp {
            duration = Double(stream.pointee.duration) * timeBase.value
        } else if context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        var frames: Int? = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
        if frames == nil, let duration { frames = Int((duration * rate.value).rounded()) }
        self.format = context
        self.decoder = decoderContext
        self.streams = streams
        self.video = VideoStreamInfo(
            index: chosen, codec: streams[chosen].codec,
            width: turns % 2 == 1 ? evenHeight : evenWidth, height: turns % 2 == 1 ? evenWidth : evenHeight,
            storedWidth: storedWidth, storedHeight: storedHeight, quarterTurns: turns,
            timeBase: timeBase, frameRate: rate, duration: duration, estimatedFrames: frames,
            colourSpace: Int32(parameters.pointee.color_space.rawValue), colourRange: Int32(parameters.pointee.color_range.rawValue),
            colourPrimaries: Int32(parameters.pointee.color_primaries.rawValue),
            colourTransfer: Int32(parameters.pointee.color_trc.rawValue))
        packet = av_packet_alloc()
        decoded = av_frame_alloc()
        // Only the chosen video stream and the streams worth copying are demuxed.
        for (i, s) in streams.enumerated() where i != chosen && !Self.copyable(s) {
            context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = decoded
        av_frame_free(&f)
        var d: UnsafeMutablePointer<AVCodecContext>? = decoder
        avcodec_free_context(&d)
        var c: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&c)
        sws_freeContext(converter)
    }

    /// Streams whose packets `next()` hands out for copying: audio and subtitles.
    static func copyable(_ stream: MediaStream) -> Bool {
        stream.kind == .audio || stream.kind == .subtitle
    }

    /// Ends a live recording: the next `next()` call flushes the decoder and the reading ends.
    /// Safe to call from another thread or a signal handler's thread.
    public func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    /// The next frame or packet, in file order; nil at the end.
    public func next() throws -> MediaItem? {
        while true {
            if readyStart < ready.count {
                let frame = ready[readyStart]
                readyStart += 1
                if readyStart == ready.count { ready.removeAll(keepingCapacity: true); readyStart = 0 }
                framesRead += 1
                return .frame(frame)
            }
            if finished { return nil }
            if draining {
                try receiveFrames()
                if ready.isEmpty {
                    finished = true
                    noteEarlyEnd()
                }
                continue
            }
            let status = stopRequested.load(ordering: .relaxed) ? AVCode.endOfFile : av_read_frame(format, packet)
            if status < 0 {
                if status != AVCode.endOfFile {
                    noteDamage { $0.readError = MediaError.text(status) }
                }
                avcodec_send_packet(decoder, nil)
                draining = true
                continue
            }
            defer { av_packet_unref(packet) }
            let index = Int(packet.pointee.stream_index)
            if index == video.index {
                try decode(packet)
            } else if index < streams.count, Self.copyable(streams[index]) {
                guard let copy = av_packet_clone(packet) else { throw MediaError(path: path, reason: .other("out of memory")) }
                return .packet(MediaPacket(taking: copy))
            }
        }
    }

    private func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        var status = avcodec_send_packet(decoder, packet)
        if status == AVCode.again {
            try receiveFrames()
            status = avcodec_send_packet(decoder, packet)
        }
        if status < 0 && status != AVCode.again {
            noteDamage { $0.undecodablePackets += 1 }
        }
        try receiveFrames()
    }

    private func receiveFrames() throws {
        while true {
            let status = avcodec_receive_frame(decoder, decoded)
            if status == AVCode.again || status == AVCode.endOfFile { return }
            if status < 0 {
                noteDamage { $0.undecodablePackets += 1 }
                return
            }
            defer { av_frame_unref(decoded) }
            if decoded.pointee.decode_error_flags != 0 || decoded.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
                noteDamage { $0.damagedFrames += 1 }
            }
            ready.append(try normalised(decoded))
        }
    }

    /// A container whose index lists more frames than could be read was cut short (a copy
    /// that did not finish, a camera that lost power).
    private func noteEarlyEnd() {
        let listed = Int(format.pointee.streams[video.index]!.pointee.nb_frames)
        guard listed > 0, framesDecoded < listed - 1, damage.readError == nil, !stopRequested.load(ordering: .relaxed) else { return }
        let seconds = lastPts.map { Double($0 - (firstPts ?? 0)) * video.timeBase.value } ?? 0
        noteDamage {
            $0.readError = "it ends after \(framesDecoded) of its \(listed) frames: truncated"
            if $0.firstAt == nil { $0.firstAt = seconds }
        }
    }

    private func noteDamage(_ change: (inout Damage) -> Void) {
        change(&damage)
        if damage.firstAt == nil {
            damage.firstAt = lastPts.map { Double($0 - (firstPts ?? 0)) * video.timeBase.value } ?? 0
        }
        var buffer = [CChar](repeating: 0, count: 512)
        if sk_av_take_errors(&buffer, buffer.count) > 0 {
            damage.detail = Self.condensed(MediaError.string(buffer))
        }
    }

    /// The decoder's frame as the pipeline wants it: a timestamp after the one before, 8-bit
    /// 4:2:0, even-sized, upright.
    private func normalised(_ frame: UnsafeMutablePointer<AVFrame>) throws -> VideoFrame {
        let nominal = max(1, Int64((1 / (video.frameRate.value * video.timeBase.value)).rounded()))
        var pts = frame.pointee.best_effort_timestamp
        if pts == AVCode.noTimestamp { pts = frame.pointee.pts }
        if pts == AVCode.noTimestamp {
            pts = lastPts.map { $0 + max(lastDuration, 1) } ?? 0
            damage.repairedTimestamps += 1
        } else if let last = lastPts, pts <= last {
            pts = last + 1
            damage.repairedTimestamps += 1
        }
        if firstPts == nil { firstPts = pts }
        let origin = firstPts ?? pts
        var duration = frame.pointee.pkt_duration
        if duration <= 0 { duration = nominal }
        lastPts = pts; lastDuration = duration
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        if pixelLimit > 0, width * height > pixelLimit {
            throw MediaError(path: path, reason: .tooLarge(width: width, height: height, limit: pixelLimit))
        }
        var picture = try planar420(frame)
        if video.quarterTurns != 0 { picture = try turned(picture, video.quarterTurns) }
        let time = Double(pts - origin) * video.timeBase.value
        framesDecoded += 1
        return VideoFrame(taking: picture, index: framesDecoded - 1, pts: source.isLive ? pts - origin : pts,
                          duration: duration, time: time)
    }

    /// A new reference to the frame if it already is 8-bit 4:2:0 and even-sized, else a
    /// converted copy (libswscale; odd sizes padded by repeating the last row and column).
    private func planar420(_ frame: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
        guard let out = av_frame_alloc() else { throw MediaError(path: path, reason: .other("out of memory")) }
        var owned: UnsafeMutablePointer<AVFrame>? = out
        let width = frame.pointee.width, height = frame.pointee.height
        let format = AVPixelFormat(frame.pointee.format)
        let is420 = format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P
        if is420 && width % 2 == 0 && height % 2 == 0 {
            av_frame_ref(out, frame)
            if format == AV_PIX_FMT_YUVJ420P {
                out.pointee.format = AV_PIX_FMT_YUV420P.rawValue
                out.pointee.color_range = AVCOL_RANGE_JPEG
            }
            return out
        }
        out.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        out.pointee.width = (width + 1) & ~1
        out.pointee.height = (height + 1) & ~1
        guard av_frame_get_buffer(out, 0) >= 0 else {
            av_frame_free(&owned)
            throw MediaError(path: path, reason: .other("out of memory"))
        }
        av_frame_copy_props(out, frame)
        let isRGB = av_pix_fmt_desc_get(format).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
        let fullRange: Int32 = format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P || format == AV_PIX_FMT_YUVJ444P
            || frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        if isRGB || frame.pointee.colorspace == AVCOL_SPC_UNSPECIFIED || frame.pointee.colorspace == AVCOL_SPC_RGB {
            out.pointee.colorspace = Int(height) >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
        }
        out.pointee.color_range = fullRange == 1 && !isRGB ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        converter = sws_getCachedContext(converter, width, height, format, width, height, AV_PIX_FMT_YUV420P,
                                         SWS_BICUBIC, nil, nil, nil)
        guard let converter else {
            av_frame_free(&owned)
            throw MediaError(path: path, reason: .unsupportedCodec("pixel format \(Self.pixelFormatName(format)) cannot be converted"))
        }
        let space = FrameScaler.swsColourSpace(out.pointee.colorspace, height: Int(height))
        let outRange: Int32 = out.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        sws_setColorspaceDetails(converter, sws_getCoefficients(space), isRGB ? 1 : fullRange,
                                 sws_getCoefficients(space), outRange, 0, 1 << 16, 1 << 16)
        withUnsafePointer(to: frame.pointee.data) { data in
            withUnsafePointer(to: frame.pointee.linesize) { lines in
                withUnsafePointer(to: out.pointee.data) { outData in
                    withUnsafePointer(to: out.pointee.linesize) { outLines in
                        data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                            lines.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                                outData.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dst in
                                    outLines.withMemoryRebound(to: Int32.self, capacity: 8) { dstStride in
                                        _ = sws_scale(converter, src, srcStride, 0, height, dst, dstStride)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        sk_frame_pad_edges(out, width, height)
        return out
    }

    /// The frame turned clockwise by quarter turns into a new frame; the old one is freed.
    private func turned(_ frame: UnsafeMutablePointer<AVFrame>, _ turns: Int) throws -> UnsafeMutablePointer<AVFrame> {
        var source: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&source) }
        guard let out = av_frame_alloc() else { throw MediaError(path: path, reason: .other("out of memory")) }
        out.pointee.format = frame.pointee.format
        out.pointee.width = turns % 2 == 1 ? frame.pointee.height : frame.pointee.width
        out.pointee.height = turns % 2 == 1 ? frame.pointee.width : frame.pointee.height
        var owned: UnsafeMutablePointer<AVFrame>? = out
        guard av_frame_get_buffer(out, 0) >= 0 else {
            av_frame_free(&owned)
            throw MediaError(path: path, reason: .other("out of memory"))
        }
        av_frame_copy_props(out, frame)
        sk_frame_rotate(frame, out, Int32(turns))
        return out
    }

    static func pixelFormatName(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
    }

    private static func describe(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> MediaStream {
        let parameters = stream.pointee.codecpar!.pointee
        let kind: MediaStream.Kind = switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
        let language = av_dict_get(stream.pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }
        var codec = String(cString: avcodec_get_name(parameters.codec_id))
        if parameters.codec_id == AV_CODEC_ID_NONE {
            let tag = parameters.codec_tag
            let letters = (0..<4).map { Character(UnicodeScalar(UInt8(truncatingIfNeeded: tag >> (8 * $0)))) }
            codec = tag == 0 ? "unknown" : "unknown codec tag '\(String(letters.map { $0.isASCII && !$0.isWhitespace ? $0 : "?" }))'"
        }
        return MediaStream(index: index, kind: kind, codec: codec,
                           timeBase: Rational(stream.pointee.time_base), language: language,
                           isAttachedPicture: stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0)
    }

    /// The photo format when FFmpeg opened a single still image ("JPEG" for its `jpeg_pipe`
    /// demuxer, "image" for `image2`), nil for a clip. GIF is a clip: it may move.
    static func stillImageFormat(_ context: UnsafeMutablePointer<AVFormatContext>) -> String? {
        guard let format = context.pointee.iformat, let raw = format.pointee.name else { return nil }
        let name = String(cString: raw)
        if name == "image2" { return "still" }
        guard name.hasSuffix("_pipe") else { return nil }
        let kind = name.dropLast("_pipe".count)
        return kind == "jpegls" ? "JPEG-LS" : kind.uppercased()
    }

    /// The video stream to read: FFmpeg's pick among real videos (not cover pictures).
    private static func bestVideoStream(_ context: UnsafeMutablePointer<AVFormatContext>, _ streams: [MediaStream]) -> Int? {
        let best = Int(av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0))
        if best >= 0, !streams[best].isAttachedPicture { return best }
        return streams.first { $0.kind == .video && !$0.isAttachedPicture }?.index
    }

    private static func openFailure(_ status: Int32, path: String?, logged: String?) -> MediaError.Reason {
        let text = MediaError.text(status)
        if status == AVCode.endOfFile { return .corrupt("ends before its first frame") }
        if text.contains("Invalid data") {
            // A file FFmpeg recognises (an MP4 whose index was never written, say) is damaged;
            // anything else is not media at all.
            if let path, let format = recognisedFormat(path) {
                return .corrupt("\(format): \(logged.map(condensed) ?? text)")
            }
            return .notMedia("unrecognised format")
        }
        if text.contains("Permission denied") { return .notReadable }
        if text.contains("No such file") { return .notFound }
        return .corrupt(text)
    }

    /// The container FFmpeg recognises from the file's first bytes, if any ("mov,mp4,m4a,...").
    static func recognisedFormat(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        guard !head.isEmpty else { return nil }
        var bytes = [UInt8](head) + [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE))
        var score: Int32 = 0
        let format: UnsafePointer<AVInputFormat>? = path.withCString { name in
            bytes.withUnsafeMutableBufferPointer { buffer in
                var probe = AVProbeData(filename: name, buf: buffer.baseAddress, buf_size: Int32(head.count), mime_type: nil)
                return av_probe_input_format3(&probe, 1, &score)
            }
        }
        guard let format, score >= AVPROBE_SCORE_EXTENSION else { return nil }
        return String(cString: format.pointee.name).split(separator: ",").first.map(String.init)
    }

    /// FFmpeg's log line without its "[mov,mp4,... @ 0x...]" prefix.
    static func condensed(_ line: String) -> String {
        guard line.hasPrefix("["), let end = line.firstIndex(of: "]") else { return line }
        return line[line.index(after: end)...].trimmingCharacters(in: .whitespaces)
    }

    private static func checkReadable(_ path: String) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw MediaError(path: path, reason: .notFound) }
        if isDirectory.boolValue { throw MediaError(path: path, reason: .notMedia("a folder")) }
        guard fm.isReadableFile(atPath: path) else { throw MediaError(path: path, reason: .notReadable) }
        if let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue == 0 {
            throw MediaError(path: path, reason: .empty)
        }
    }
}
