import CAV

/// What `MediaReader.next()` hands out, in the file's order.
public enum MediaItem: Sendable {
    /// A decoded video frame (upright, 8-bit 4:2:0, even-sized).
    case frame(VideoFrame)
    /// A packet of another stream (audio, subtitles), to copy into the output untouched.
    case packet(MediaPacket)
}

/// One compressed packet of a stream other than the video, owned until written.
public final class MediaPacket: @unchecked Sendable {
    let packet: UnsafeMutablePointer<AVPacket>
    public var streamIndex: Int { Int(packet.pointee.stream_index) }
    public var pts: Int64 { packet.pointee.pts }
    public var size: Int { Int(packet.pointee.size) }

    init(taking packet: UnsafeMutablePointer<AVPacket>) { self.packet = packet }

    /// A copy to write somewhere else too (writing uses a packet up).
    public func copy() throws -> MediaPacket {
        guard let clone = av_packet_clone(packet) else { throw MediaError(path: "packet", reason: .other("out of memory")) }
        return MediaPacket(taking: clone)
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&pointer)
    }
}
