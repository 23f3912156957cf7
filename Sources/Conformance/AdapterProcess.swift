import Foundation
import JSONCoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An external adapter: `/bin/sh -c CMD`, one JSON request per line on its stdin, one response per line on its
/// stdout (docs/adapters.md). Its stderr passes through. A crash, a line that is not a response to the request,
/// or no answer within `timeout` seconds is an ``AdapterError``; the process is then terminated.
public final class AdapterProcess: AdapterEndpoint {
    public let label: String
    let process = Process()
    let stdinPipe = Pipe()
    let stdoutPipe = Pipe()
    let timeout: Double
    var buffer: [UInt8] = []
    var nextID = 1
    var broken: AdapterError?
    var inputClosed = false
    var outputClosed = false
    /// The longest response line accepted.
    static let maximumLineBytes = 16 << 20

    /// Starts the adapter.
    ///
    /// - Parameters:
    ///   - command: A shell command line.
    ///   - timeout: Seconds to wait for each response.
    /// - Throws: `AdapterError` when the shell cannot be started.
    public init(command: String, timeout: Double = 10) throws(AdapterError) {
        label = "adapter: \(command)"
        self.timeout = timeout
        // A write to an adapter that has exited must be an error, not a SIGPIPE that kills sandnet.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { throw AdapterError("cannot start adapter '\(command)': \(error)") }
    }

    deinit { stop() }

    /// Closes the adapter's stdin, gives it a moment to exit, then kills it. Never waits without a deadline.
    public func stop() {
        closeInput()
        waitBriefly(seconds: 1)
        if process.isRunning { kill() }
    }

    /// SIGKILL (SIGTERM may be blocked in a child that inherited the launching thread's signal mask) and both pipe
    /// ends closed, so a grandchild left behind by the shell gets EPIPE/EOF instead of blocking forever.
    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        closeInput()
        if !outputClosed {
            outputClosed = true
            try? stdoutPipe.fileHandleForReading.close()
        }
        waitBriefly(seconds: 2)
    }

    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        try? stdinPipe.fileHandleForWriting.close()
    }

    func waitBriefly(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
    }

    public func hello() throws(AdapterError) -> Set<String> {
        guard case .result(let result) = try call("hello", .object([])) else {
            throw AdapterError("\(label): the hello request got no result")
        }
        guard let ops = result["ops"]?.arrayValue?.compactMap(\.stringValue) else {
            throw AdapterError("\(label): hello result has no \"ops\" array: \(result.jsonText)")
        }
        return Set(ops)
    }

    public func call(_ op: String, _ input: JSON) throws(AdapterError) -> AdapterResponse {
        if let broken { throw broken }
        let id = nextID
        nextID += 1
        let request = JSON.object([("id", .integer(id)), ("op", .string(op)), ("input", input)])
        do {
            try send(request.jsonText + "\n")
            let line = try readLine(for: "request \(id) (\(op))")
            return try parse(line, id: id, op: op)
        } catch {
            broken = error
            kill()
            throw error
        }
    }

    func send(_ text: String) throws(AdapterError) {
        let fd = stdinPipe.fileHandleForWriting.fileDescriptor
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw AdapterError("\(label): adapter stopped reading its input (\(exitText()))")
            }
            bytes = bytes.dropFirst(written)
        }
    }

    func readLine(for what: String) throws(AdapterError) -> String {
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        var searched = 0
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            searched = buffer.count
            guard buffer.count <= Self.maximumLineBytes else {
                throw AdapterError(
                    "\(label): the response to \(what) is longer than \(Self.maximumLineBytes >> 20) MiB; stopped it")
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw AdapterError("\(label): no response to \(what) within \(timeout) s (adapter hung); stopped it")
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw AdapterError("\(label): adapter exited before answering \(what) (\(exitText()))")
            }
            buffer += chunk[..<count]
        }
    }

    func exitText() -> String {
        waitBriefly(seconds: 1)
        if process.isRunning { return "still running" }
        return process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
    }

    func parse(_ line: String, id: Int, op: String) throws(AdapterError) -> AdapterResponse {
        let shown = line.count > 200 ? String(line.prefix(200)) + "…" : line
        let response: JSON
        do { response = try JSON.parse(line) } catch {
            throw AdapterError("\(label): request \(id) (\(op)) got a line that is not JSON: \(shown)")
        }
        guard response["id"]?.uint64 == UInt64(id) else {
            throw AdapterError("\(label): request \(id) (\(op)) got a response with another id: \(shown)")
        }
        if let result = response["result"], case .object = result { return .result(result) }
        if let error = response["error"] { return .error(error.stringValue ?? error.jsonText) }
        if response["unsupported"] == .bool(true) {
            return .unsupported(response["reason"]?.stringValue ?? "unsupported")
        }
        throw AdapterError(
            "\(label): request \(id) (\(op)) got neither result, error nor unsupported: \(shown)")
    }
}
