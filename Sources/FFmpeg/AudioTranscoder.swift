import CAV

/// Re-encodes one audio stream whose codec the output container cannot hold (PCM into MP4,
/// AAC into WebM): decode, resample to what the encoder takes, encode in the encoder's frame
/// size. Timestamps follow the decoded samples from the stream's first timestamp on.
final class AudioTranscoder {
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private let fifo: OpaquePointer
    private let stream: UnsafeMutablePointer<AVStream>
    private let inputTimeBase: AVRational
    private let decoded: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The next sample's timestamp, in 1/sample-rate.
    private var nextPts: Int64?

    init(input: UnsafeMutablePointer<AVStream>, output: UnsafeMutablePointer<AVStream>, encoder name: String, globalHeader: Bool) throws {
        func fail(_ why: String) -> MediaError { MediaError(path: "audio", reason: .unsupportedCodec(why)) }
        stream = output
        inputTimeBase = input.pointee.time_base
        decoded = av_frame_alloc()
        packet = av_packet_alloc()
        let parameters = input.pointee.codecpar!
        guard let decoderCodec = avcodec_find_decoder(parameters.pointee.codec_id),
              let encoderCodec = avcodec_find_encoder_by_name(name) else {
            throw fail("no decoder for \(String(cString: avcodec_get_name(parameters.pointee.codec_id))) or encoder \(name)")
        }
        decoder = avcodec_alloc_context3(decoderCodec)
        encoder = avcodec_alloc_context3(encoderCodec)
        guard let d = decoder, let e = encoder else { throw fail("out of memory") }
        avcodec_parameters_to_context(d, parameters)
        d.pointee.pkt_timebase = input.pointee.time_base
        guard avcodec_open2(d, decoderCodec, nil) >= 0 else { throw fail("cannot decode the audio") }

        e.pointee.sample_rate = Self.rate(for: encoderCodec, near: d.pointee.sample_rate)
        e.pointee.sample_fmt = encoderCodec.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        let channels = min(Int(d.pointee.ch_layout.nb_channels), 2)
        av_channel_layout_default(&e.pointee.ch_layout, Int32(max(channels, 1)))
        e.pointee.bit_rate = channels > 1 ? 160_000 : 96_000
        e.pointee.time_base = AVRational(num: 1, den: e.pointee.sample_rate)
        if globalHeader { e.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let opened = avcodec_open2(e, encoderCodec, nil)
        guard opened >= 0 else { throw fail("\(name): \(MediaError.text(opened))") }
        avcodec_parameters_from_context(output.pointee.codecpar, e)
        output.pointee.time_base = e.pointee.time_base

        var swr: OpaquePointer? = nil
        guard swr_alloc_set_opts2(&swr, &e.pointee.ch_layout, e.pointee.sample_fmt, e.pointee.sample_rate,
                                  &d.pointee.ch_layout, d.pointee.sample_fmt, d.pointee.sample_rate, 0, nil) >= 0,
              swr_init(swr) >= 0 else { throw fail("cannot resample the audio") }
        resampler = swr
        guard let queue = av_audio_fifo_alloc(e.pointee.sample_fmt, e.pointee.ch_layout.nb_channels, 1024) else { throw fail("out of memory") }
        fifo = queue
    }

    deinit {
        avcodec_free_context(&decoder)
        avcodec_free_context(&encoder)
        swr_free(&resampler)
        av_audio_fifo_free(fifo)
        var f: UnsafeMutablePointer<AVFrame>? = decoded
        av_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// The encoder's sample rate closest to the input's (Opus takes only 48 kHz and a few others).
    static func rate(for codec: UnsafePointer<AVCodec>, near wanted: Int32) -> Int32 {
        guard var cursor = codec.pointee.supported_samplerates else { return wanted }
        var best: Int32 = 0
        while cursor.pointee != 0 {
            if best == 0 || abs(cursor.pointee - wanted) < abs(best - wanted) { best = cursor.pointee }
            cursor += 1
        }
        return best == 0 ? wanted : best
    }

    /// Decodes one packet (nil: the end) and hands every encoded packet to `emit`.
    func encode(_ input: UnsafeMutablePointer<AVPacket>?, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let d = decoder, let e = encoder else { return }
        _ = avcodec_send_packet(d, input)  // a damaged audio packet is skipped, as players do
        while avcodec_receive_frame(d, decoded) >= 0 {
            defer { av_frame_unref(decoded) }
            if nextPts == nil {
                let pts = decoded.pointee.best_effort_timestamp
                nextPts = pts == AVCode.noTimestamp ? 0 : av_rescale_q(pts, inputTimeBase, e.pointee.time_base)
            }
            try resample(decoded.pointee.extended_data.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: UnsafePointer<UInt8>?.self) },
                         count: decoded.pointee.nb_samples)
        }
        if input == nil { try resample(nil, count: 0) }
        let size = e.pointee.frame_size > 0 ? e.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= size || (input == nil && av_audio_fifo_size(fifo) > 0) {
            try send(min(size, av_audio_fifo_size(fifo)), emit: emit)
        }
        if input == nil { try drain(nil, emit: emit) }
    }

    private func resample(_ samples: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32) throws {
        guard let e = encoder else { return }
        let room = swr_get_out_samples(resampler, count)
        guard room > 0 else { return }
        var buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>? = nil
        guard av_samples_alloc_array_and_samples(&buffer, nil, e.pointee.ch_layout.nb_channels, room, e.pointee.sample_fmt, 0) >= 0,
              let buffer else { throw MediaError(path: "audio", reason: .other("out of memory")) }
        defer { av_freep(buffer); av_free(buffer) }
        let made = swr_convert(resampler, buffer, room, samples, count)
        if made > 0 {
            buffer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: Int(e.pointee.ch_layout.nb_channels)) { planes in
                _ = av_audio_fifo_write(fifo, planes, made)
            }
        }
    }

    private func send(_ count: Int32, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let e = encoder else { return }
        var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let f = frame else { return }
        f.pointee.nb_samples = count
        f.pointee.format = e.pointee.sample_fmt.rawValue
        f.pointee.sample_rate = e.pointee.sample_rate
        av_channel_layout_copy(&f.pointee.ch_layout, &e.pointee.ch_layout)
        guard av_frame_get_buffer(f, 0) >= 0 else { throw MediaError(path: "audio", reason: .other("out of memory")) }
        f.pointee.extended_data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: Int(e.pointee.ch_layout.nb_channels)) { planes in
            _ = av_audio_fifo_read(fifo, planes, count)
        }
        f.pointee.pts = nextPts ?? 0
        nextPts = (nextPts ?? 0) + Int64(count)
        try drain(f, emit: emit)
    }

    private func drain(_ frame: UnsafeMutablePointer<AVFrame>?, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let e = encoder else { return }
        guard avcodec_send_frame(e, frame) >= 0 else { return }
        while avcodec_receive_packet(e, packet) >= 0 {
            av_packet_rescale_ts(packet, e.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try emit(packet)
            av_packet_unref(packet)
        }
    }
}
