import Foundation

/// Picks the port `serve` listens on, the same on every address, before anything listens.
enum PortChooser {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `requested` as given (an error if taken), else the preferred port when free on every
    /// address, else a free port the system picks (`--port 0` skips the preferred one). The
    /// IPv6 loopback is left out, with a note, where the machine has none.
    static func choose(hosts: [String], requested: Int?, log: (String) -> Void) throws -> (port: Int, hosts: [String]) {
        var usable: [String] = []
        for host in hosts {
            switch probe(host, port: 0) {
            case .free, .taken: usable.append(host)
            case .unavailable(let why):
                if host == "::1", hosts.count > 1 { log("note: no IPv6 loopback here (\(why)); listening on \(hosts.filter { $0 != "::1" }.joined(separator: ", ")) only"); continue }
                throw Failure(description: "cannot listen on \(host) (\(why))")
            }
        }
        if let requested, requested > 0 {
            guard requested <= 65535 else { throw Failure(description: "--port must be 0...65535") }
            for host in usable {
                if case .taken(let why) = probe(host, port: requested) {
                    throw Failure(description: "port \(requested) on \(host) is not free (\(why)); try --port 0 for any free port")
                }
            }
            return (requested, usable)
        }
        if requested == nil, usable.allSatisfy({ if case .free = probe($0, port: ServeSettings.preferredPort) { true } else { false } }) {
            return (ServeSettings.preferredPort, usable)
        }
        for _ in 0..<50 {
            guard case .free(let port) = probe(usable[0], port: 0) else { break }
            if usable.dropFirst().allSatisfy({ if case .free = probe($0, port: port) { true } else { false } }) {
                return (port, usable)
            }
        }
        throw Failure(description: "no free port found on \(usable.joined(separator: ", "))")
    }

    enum Probe { case free(Int), taken(String), unavailable(String) }

    /// Binds a listening socket to `host:port` and closes it again: whether the server could.
    static func probe(_ host: String, port: Int) -> Probe {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            return .unavailable("not an IP address: use an address such as 0.0.0.0 or 192.168.1.10")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if first.pointee.ai_family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            let why = String(cString: strerror(code))
            return code == EADDRINUSE || code == EACCES ? .taken(why) : .unavailable(why)
        }
        guard listen(fd, 1) == 0 else { return .taken(String(cString: strerror(errno))) }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let family = Int32(address.ss_family)
        let bound = withUnsafePointer(to: address) { pointer -> Int in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
        return .free(bound)
    }
}
