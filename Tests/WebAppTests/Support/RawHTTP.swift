import Foundation

/// A minimal HTTP/1.1 client over a plain socket: it sends exactly the bytes it is given (a
/// Host header of its choosing, `..` left in the path), which URLSession would not.
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        /// The `error` of a JSON error answer.
        var error: String? { (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func request(_ method: String = "GET", host: String = "127.0.0.1", port: Int, path: String,
                        headers: [String: String] = [:], body: Data? = nil, hostHeader: String? = nil,
                        timeout: TimeInterval = 60) throws -> Response {
        var lines = ["\(method) \(path) HTTP/1.1"]
        let shownHost = host.contains(":") ? "[\(host)]" : host
        lines.append("Host: \(hostHeader ?? "\(shownHost):\(port)")")
        for (name, value) in headers { lines.append("\(name): \(value)") }
        if let body { lines.append("Content-Length: \(body.count)") }
        lines.append("Connection: close")
        var bytes = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        if let body { bytes.append(body) }
        let fd = try connect(host: host, port: port, timeout: timeout)
        defer { close(fd) }
        try bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw Failure(description: "send failed: \(String(cString: strerror(errno)))") }
                sent += n
            }
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Read to the end of the answer: its Content-Length, the last chunk, or the connection's
        // end (chromedriver keeps connections open whatever the request asks).
        while !isComplete(received) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return try parse(received)
    }

    static func connect(host: String, port: Int, timeout: TimeInterval) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            throw Failure(description: "bad address \(host)")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot connect to \(host):\(port): \(why)")
        }
        return fd
    }

    static func isComplete(_ data: Data) -> Bool {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).lowercased()
        let body = data[split.upperBound...]
        for line in head.components(separatedBy: "\r\n") where line.hasPrefix("content-length:") {
            return body.count >= Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? Int.max
        }
        if head.contains("transfer-encoding: chunked") { return body.range(of: Data("0\r\n\r\n".utf8)) != nil }
        return false
    }

    static func parse(_ data: Data) throws -> Response {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP head in \(data.count) bytes") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(data[split.upperBound...])
        if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }), body.count > length {
            body = body.prefix(length)
        }
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            body = dechunk(body)
        }
        return Response(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: Data) -> Data {
        var out = Data(), rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            out.append(rest[start..<min(rest.endIndex, start + size)])
            rest = rest[min(rest.endIndex, start + size + 2)...]
        }
        return out
    }
}
