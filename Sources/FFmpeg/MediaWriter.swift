import CAV
import Foundation

/// Writes a clip: encodes frames into the chosen format and copies the reader's audio and
/// subtitle packets alongside, every frame and packet keeping its timestamp.
///
/// The file is written under a hidden temporary name in the destination folder and renamed
/// into place by `finish()`, so an interrupted job never leaves a partial output under the
/// real name. Metadata (GPS location, device make and model) is not carried over unless
/// `keepMetadata` is set; stream languages always are.
public final class MediaWriter {
    public let path: String
    public let settings: EncodingSettings
    /// What happened to each of the input's other streams ("audio 1 (aac): copied").
    public private(set) var streamNotes: [String] = []

    private let temporary: String
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let encoder: UnsafeMutablePointer<AVCodecContext>
    private let videoStream: UnsafeMutablePointer<AVStream>
    private let inputTimeBase: Rational
    private let packet: UnsafeMutablePointer<AVPacket>
    /// Input stream index -> (output stream, input time base) for copied streams.
    private var copies: [Int: (stream: UnsafeMutablePointer<AVStream>, timeBase: AVRational)] = [:]
    private var transcoders: [Int: AudioTranscoder] = [:]
    /// GIF and WebP: frames scaled to the share size (and for GIF given a palette per scene).
    private var share: ShareFilter?
    /// With a frame-rate cap: the last time slot (1 / rate wide) a frame was kept in.
    private var lastSlot: Int?
    /// The size frames are written at (see `EncodingSettings.outputSize`).
    public private(set) var outputSize = (width: 0, height: 0)
    /// Frame durations by encoder-side pts, for the packets the encoder gives back.
    private var durations: [Int64: Int64] = [:]
    private var lastEncodedPts: Int64?
    private var open = true

    /// Opens `path` for writing frames of `reader`'s video (its size, unless `width` says
    /// otherwise, its time base and colour).
    public init(path: String, reader: MediaReader, settings: EncodingSettings, overwrite: Bool, width: Int? = nil) throws {
        sk_av_start()
        self.path = path
        self.settings = settings
        let fm = FileManager.default
        if !overwrite, fm.fileExists(atPath: path) { throw MediaError(path: path, reason: .outputExists) }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        temporary = (folder.isEmpty ? "." : folder) + "/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let video = reader.video
        inputTimeBase = video.timeBase

        var made: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&made, nil, settings.format.muxer, temporary) >= 0, let made else {
            throw MediaError(path: path, reason: .other("FFmpeg cannot write \(settings.format.rawValue)"))
        }
        context = made
        guard let codec = avcodec_find_encoder_by_name(settings.format.videoEncoder),
              let encoderContext = avcodec_alloc_context3(codec) else {
            avformat_free_context(made)
            throw MediaError(path: path, reason: .unsupportedCodec("this FFmpeg has no \(settings.format.videoEncoder) encoder"))
        }
        encoder = encoderContext
        packet = av_packet_alloc()
        guard let stream = avformat_new_stream(made, nil) else {
            throw MediaError(path: path, reason: .other("out of memory"))
        }
        videoStream = stream
        do {
            outputSize = settings.outputSize(width: width ?? video.width, height: video.height,
                                             reference: (video.width, video.height))
            try configureEncoder(codec: codec, video: video, width: width ?? video.width)
            stream.pointee.time_base = encoder.pointee.time_base
            avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
            if settings.keepMetadata {
                let input = reader.format.pointee.streams[video.index]!
                av_dict_copy(&stream.pointee.metadata, input.pointee.metadata, 0)
                av_dict_set(&stream.pointee.metadata, "rotate", nil, 0)
                av_dict_copy(&made.pointee.metadata, reader.format.pointee.metadata, 0)
            }
            try addOtherStreams(from: reader)
            guard made.pointee.oformat.pointee.flags & AVFMT_NOFILE != 0
                    || avio_open(&made.pointee.pb, temporary, AVIO_FLAG_WRITE) >= 0 else {
                throw MediaError(path: path, reason: .outputNotWritable(String(cString: strerror(errno))))
            }
            var options: OpaquePointer? = nil
            defer { av_dict_free(&options) }
            if settings.format == .mp4 { av_dict_set(&options, "movflags", "+faststart", 0) }
            // Animations play on and on, as people expect of them.
            if settings.format == .webp || settings.format == .gif { av_dict_set(&options, "loop", "0", 0) }
            let status = avformat_write_header(made, &options)
            guard status >= 0 else {
                throw MediaError(path: path, reason: .outputNotWritable(MediaError.text(status)))
            }
        } catch {
            release()
            try? fm.removeItem(atPath: temporary)
            throw error
        }
    }

    deinit {
        if open { abandon() }
    }

    private func configureEncoder(codec: UnsafePointer<AVCodec>, video: VideoStreamInfo, width: Int) throws {
        let e = encoder
        e.pointee.width = Int32(outputSize.width)
        e.pointee.height = Int32(outputSize.height)
        e.pointee.time_base = (settings.format.fixedTimeBase ?? video.timeBase).av
        e.pointee.framerate = video.frameRate.av
        e.pointee.thread_count = Int32(settings.threads)
        e.pointee.color_range = AVColorRange(rawValue: UInt32(video.colourRange))
        e.pointee.colorspace = AVColorSpace(rawValue: UInt32(video.colourSpace))
        e.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(video.colourPrimaries))
        e.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(video.colourTransfer))
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        switch settings.format {
        case .mp4:
            e.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            av_dict_set(&options, "crf", String(settings.crf), 0)
            av_dict_set(&options, "preset", settings.preset, 0)
        case .webm:
            e.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            e.pointee.bit_rate = 0
            av_dict_set(&options, "crf", String(settings.crf + 13), 0)  // VP9's scale: x264 18 looks like VP9 ~31
            av_dict_set(&options, "deadline", "good", 0)
            av_dict_set(&options, "cpu-used", String(Self.vp9Speed(settings.preset)), 0)
            av_dict_set(&options, "row-mt", "1", 0)
        case .gif:
            e.pointee.pix_fmt = AV_PIX_FMT_PAL8
            share = try ShareFilter(width: width, height: video.height, outputWidth: outputSize.width, outputHeight: outputSize.height,
                                    timeBase: video.timeBase, gif: true, path: path)
        case .webp:
            e.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            if (outputSize.width, outputSize.height) != (width, video.height) {
                share = try ShareFilter(width: width, height: video.height, outputWidth: outputSize.width, outputHeight: outputSize.height,
                                        timeBase: video.timeBase, gif: false, path: path)
            }
            // Every frame whole: libwebp's lossy frame differences leave ghosts of moved faces.
            e.pointee.gop_size = 1
            av_dict_set(&options, "quality", String(max(0, min(100, 100 - settings.crf))), 0)
        }
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            e.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        let status = avcodec_open2(e, codec, &options)
        guard status >= 0 else {
            throw MediaError(path: path, reason: .unsupportedCodec("\(settings.format.videoEncoder): \(MediaError.text(status))"))
        }
    }

    /// VP9's cpu-used for an x264 preset name: faster presets, higher speed.
    static func vp9Speed(_ preset: String) -> Int {
        let index = EncodingSettings.presets.firstIndex(of: preset) ?? 5
        return max(0, min(8, 8 - index))
    }

    private func addOtherStreams(from reader: MediaReader) throws {
        let output = context.pointee.oformat!
        for info in reader.streams where info.index != reader.video.index && MediaReader.copyable(info) {
            let input = reader.format.pointee.streams[info.index]!
            let label = "\(info.kind.rawValue) stream \(info.index) (\(info.codec))"
            let carries = info.kind == .audio ? settings.format.audioEncoder != nil : settings.format == .mp4 || settings.format == .webm
            guard carries else {
                streamNotes.append("\(label): left out (\(settings.format.rawValue) has no \(info.kind.rawValue))")
                continue
            }
            let holds = avformat_query_codec(output, input.pointee.codecpar.pointee.codec_id, FF_COMPLIANCE_NORMAL) == 1
            let fits = holds && (info.kind != .audio || settings.format.keepsAudio(info.codec))
            let reencode = !fits && info.kind == .audio ? settings.format.audioEncoder : nil
            guard fits || reencode != nil else {
                streamNotes.append("\(label): left out (\(settings.format.rawValue) cannot hold \(info.codec))")
                continue
            }
            guard let stream = avformat_new_stream(context, nil) else { throw MediaError(path: path, reason: .other("out of memory")) }
            if let name = reencode {
                do {
                    transcoders[info.index] = try AudioTranscoder(input: input, output: stream, encoder: name,
                                                                  globalHeader: output.pointee.flags & AVFMT_GLOBALHEADER != 0)
                } catch let error as MediaError {
                    throw MediaError(path: reader.path, reason: error.reason)
                }
                let why = holds ? "not every \(settings.format.rawValue) player plays \(info.codec)" : "\(settings.format.rawValue) cannot hold \(info.codec)"
                streamNotes.append("\(label): re-encoded as \(name) (\(why))")
            } else {
                avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar)
                stream.pointee.codecpar.pointee.codec_tag = 0
                stream.pointee.time_base = input.pointee.time_base
                copies[info.index] = (stream, input.pointee.time_base)
                streamNotes.append("\(label): copied")
            }
            if let language = info.language { av_dict_set(&stream.pointee.metadata, "language", language, 0) }
            if settings.keepMetadata { av_dict_copy(&stream.pointee.metadata, input.pointee.metadata, 0) }
            stream.pointee.disposition = input.pointee.disposition
        }
    }

    /// Encodes one frame; its timestamp and duration are kept.
    public func write(_ frame: VideoFrame) throws {
        let f = frame.frame
        if settings.isShareFormat, let rate = settings.maxFrameRate {
            // At most `rate` frames a second: the first frame in each slot of 1 / rate s is kept,
            // and shows until the next kept one.
            let slot = Int((frame.time * rate + 1e-6).rounded(.down))
            if let lastSlot, slot <= lastSlot { return }
            lastSlot = slot
        }
        let pts = rescaled(frame.pts, from: inputTimeBase.av, to: encoder.pointee.time_base)
        if let last = lastEncodedPts, pts <= last {
            // A coarser time base (GIF's hundredths) merged two frames' times: this one is dropped.
            return
        }
        lastEncodedPts = pts
        var duration = max(1, rescaled(frame.duration, from: inputTimeBase.av, to: encoder.pointee.time_base))
        if settings.isShareFormat, let rate = settings.maxFrameRate {
            // A kept frame stands for those dropped after it.
            duration = max(duration, Int64((1 / rate / av_q2d(encoder.pointee.time_base)).rounded()))
        }
        durations[pts] = duration
        f.pointee.pict_type = AV_PICTURE_TYPE_NONE
        if let share {
            f.pointee.pts = frame.pts
            try share.convert(f, picture: frame) { shared, base in
                shared.pointee.pts = rescaled(shared.pointee.pts, from: base, to: encoder.pointee.time_base)
                try encode(shared)
            }
        } else {
            f.pointee.pts = pts
            try encode(f)
        }
    }

    /// Copies (or re-encodes) one packet of another stream (the packet is used up).
    public func write(_ packet: MediaPacket) throws {
        if let transcoder = transcoders[packet.streamIndex] {
            try transcoder.encode(packet.packet, emit: mux)
            return
        }
        guard let copy = copies[packet.streamIndex] else { return }
        let p = packet.packet
        av_packet_rescale_ts(p, copy.timeBase, copy.stream.pointee.time_base)
        p.pointee.stream_index = copy.stream.pointee.index
        p.pointee.pos = -1
        try mux(p)
    }

    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        let status = avcodec_send_frame(encoder, frame)
        guard status >= 0 else { throw MediaError(path: path, reason: .other("encoding failed: \(MediaError.text(status))")) }
        while true {
            let received = avcodec_receive_packet(encoder, packet)
            if received == AVCode.again || received == AVCode.endOfFile { return }
            guard received >= 0 else { throw MediaError(path: path, reason: .other("encoding failed: \(MediaError.text(received))")) }
            if packet.pointee.duration <= 0, let duration = durations[packet.pointee.pts] { packet.pointee.duration = duration }
            durations[packet.pointee.pts] = nil
            av_packet_rescale_ts(packet, encoder.pointee.time_base, videoStream.pointee.time_base)
            packet.pointee.stream_index = videoStream.pointee.index
            try mux(packet)
        }
    }

    private func mux(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        let status = av_interleaved_write_frame(context, packet)
        guard status >= 0 else {
            throw MediaError(path: path, reason: .outputNotWritable(MediaError.text(status)))
        }
    }

    /// Flushes the encoders, completes the file and renames it into place; `beforeRename` is
    /// told the finished temporary file's path just before.
    public func finish(beforeRename: (String) -> Void = { _ in }) throws {
        guard open else { return }
        do {
            if let share {
                try share.finish { shared, base in
                    shared.pointee.pts = rescaled(shared.pointee.pts, from: base, to: encoder.pointee.time_base)
                    try encode(shared)
                }
            }
            try encode(nil)
            for (_, transcoder) in transcoders.sorted(by: { $0.key < $1.key }) {
                try transcoder.encode(nil, emit: mux)
            }
            let status = av_write_trailer(context)
            guard status >= 0 else { throw MediaError(path: path, reason: .outputNotWritable(MediaError.text(status))) }
        } catch {
            abandon()
            throw error
        }
        release()
        beforeRename(temporary)
        if rename(temporary, path) != 0 {
            let detail = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw MediaError(path: path, reason: .outputNotWritable(detail))
        }
    }

    /// Gives up: closes and removes the temporary file; nothing appears under `path`.
    public func abandon() {
        guard open else { return }
        release()
        try? FileManager.default.removeItem(atPath: temporary)
    }

    private func release() {
        guard open else { return }
        open = false
        var e: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&e)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        transcoders.removeAll()
        share = nil
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    func rescaled(_ value: Int64, from: AVRational, to: AVRational) -> Int64 {
        av_rescale_q_rnd(value, from, to, AVRounding(rawValue: AV_ROUND_NEAR_INF.rawValue | AV_ROUND_PASS_MINMAX.rawValue))
    }
}
