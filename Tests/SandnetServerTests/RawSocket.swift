import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        Darwin.send(fd, bytes, count, 0)
    #endif
}

/// A blocking TCP client on 127.0.0.1 for tests that need the raw bytes of HTTP and WebSocket: partial heads,
/// huge headers, malformed bodies, binary frames, a small receive buffer. Every blocking call runs on a GCD
/// thread (never the cooperative pool the server needs), and a receive timeout is only a hang guard: a passing
/// run never reaches it.
final class RawSocket: @unchecked Sendable {
    // @unchecked: `fd` is immutable; the socket is used by one task at a time, or by one sender and one reader.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    /// Whether ``reset()`` has closed `fd` already.
    private let closed = Mutex(false)

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` sets SO_RCVBUF before connecting (a slow reader).
    init(port: Int, receiveBuffer: Int? = nil, hangGuard: Int = 120) throws {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var guardTime = timeval(tv_sec: hangGuard, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &guardTime, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &guardTime, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect: errno \(errno)")
        }
    }

    deinit { closeOnce() }

    private func closeOnce() {
        if closed.withLock({ done in
            defer { done = true }
            return !done
        }) {
            close(fd)
        }
    }

    /// Closes with a TCP reset (SO_LINGER 0): the server sees ECONNRESET, not an end of stream.
    func reset() {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        closeOnce()
    }

    /// Runs a blocking call off the cooperative pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    func sendNow(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { systemSend(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno) after \(offset) bytes") }
            offset += n
        }
    }

    func send(_ bytes: [UInt8]) async throws { try await Self.blocking { try self.sendNow(bytes) } }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Reads up to `count` bytes; empty at end of stream; throws when the hang guard expires.
    func receiveNow(upTo count: Int = 65_536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
        if n < 0 {
            if errno == ECONNRESET { return [] }
            throw Failure(description: "recv: errno \(errno) (hang guard expired?)")
        }
        return Array(buffer[0..<n])
    }

    /// Everything until the server closes the connection.
    func readToEnd() async throws -> [UInt8] {
        try await Self.blocking {
            var all: [UInt8] = []
            while true {
                let chunk = try self.receiveNow()
                if chunk.isEmpty { return all }
                all += chunk
            }
        }
    }

    /// Reads until `done` says the bytes so far are complete.
    func read(until done: @escaping @Sendable ([UInt8]) -> Bool) async throws -> [UInt8] {
        try await Self.blocking {
            var all: [UInt8] = []
            while !done(all) {
                let chunk = try self.receiveNow()
                if chunk.isEmpty {
                    throw Failure(description: "closed early after: \(String(decoding: all, as: UTF8.self))")
                }
                all += chunk
            }
            return all
        }
    }

    /// Reads one HTTP response with a Content-Length body (or up to the end of the stream).
    func readHTTPResponse() async throws -> (status: Int, head: String, body: String) {
        let bytes = try await read { bytes in
            guard let end = Self.headEnd(bytes) else { return false }
            let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
            guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            else { return true }
            return bytes.count >= end + 4 + length
        }
        let end = Self.headEnd(bytes)!
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, String(decoding: bytes[(end + 4)...], as: UTF8.self))
    }

    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Half-closes: the server sees the end of the request stream.
    func shutdownOutput() { shutdown(fd, Int32(SHUT_WR)) }

    // MARK: WebSocket (RFC 6455), client side

    /// Opens a WebSocket on `path`; returns the socket after the 101 answer.
    static func webSocket(port: Int, path: String = "/", receiveBuffer: Int? = nil) async throws -> RawSocket {
        let socket = try RawSocket(port: port, receiveBuffer: receiveBuffer)
        try await socket.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        // Read the head byte by byte so no frame after it is consumed.
        let head = try await blocking { () throws -> [UInt8] in
            var head: [UInt8] = []
            while headEnd(head) == nil {
                let byte = try socket.receiveNow(upTo: 1)
                guard !byte.isEmpty else { throw Failure(description: "closed during the upgrade") }
                head += byte
            }
            return head
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw Failure(description: "no upgrade: \(String(decoding: head, as: UTF8.self))")
        }
        return socket
    }

    /// A masked client frame (the mask key is zero: the payload goes as is).
    static func frame(_ payload: [UInt8], opcode: UInt8, fin: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        out += [0, 0, 0, 0]
        return out + payload
    }

    static func textFrame(_ text: String) -> [UInt8] { frame(Array(text.utf8), opcode: 1) }
}

/// Reads server frames from a ``RawSocket`` (unmasked, unfragmented as Sandnet writes them).
final class WebSocketFrameReader: @unchecked Sendable {
    // @unchecked: used by one task at a time.
    struct Frame: Equatable {
        let opcode: UInt8
        let payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
        /// The close code and reason of a close frame.
        var close: (code: Int, reason: String)? {
            guard opcode == 8, payload.count >= 2 else { return nil }
            return (Int(payload[0]) << 8 | Int(payload[1]), String(decoding: payload[2...], as: UTF8.self))
        }
    }

    let socket: RawSocket
    private var buffer: [UInt8] = []
    private var offset = 0

    init(_ socket: RawSocket) { self.socket = socket }

    private func need(_ count: Int) throws -> Bool {
        while buffer.count - offset < count {
            let chunk = try socket.receiveNow(upTo: 16_384)
            if chunk.isEmpty { return false }
            if offset > 0 {
                buffer.removeFirst(offset)
                offset = 0
            }
            buffer += chunk
        }
        return true
    }

    private func take(_ count: Int) -> ArraySlice<UInt8> {
        defer { offset += count }
        return buffer[offset..<(offset + count)]
    }

    /// The next frame, or nil at the end of the stream. Blocking: call it from ``RawSocket/blocking(_:)``.
    func nextNow() throws -> Frame? {
        guard try need(2) else { return nil }
        let header = take(2)
        let opcode = header.first! & 0x0F
        var length = Int(header.last! & 0x7F)
        if length == 126 {
            guard try need(2) else { return nil }
            length = take(2).reduce(0) { $0 << 8 | Int($1) }
        } else if length == 127 {
            guard try need(8) else { return nil }
            length = take(8).reduce(0) { $0 << 8 | Int($1) }
        }
        guard try need(length) else { return nil }
        return Frame(opcode: opcode, payload: Array(take(length)))
    }

    /// The next data or close frame (pings are skipped).
    func next() async throws -> Frame? {
        try await RawSocket.blocking {
            while let frame = try self.nextNow() {
                if frame.opcode != 9 && frame.opcode != 10 { return frame }
            }
            return nil
        }
    }
}
