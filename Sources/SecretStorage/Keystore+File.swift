import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Keystore {
    /// Reads and parses a keystore file.
    public init(contentsOf path: String) throws(KeystoreError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, reason: "cannot read the file")
        }
        try self.init(json: data)
    }

    /// Writes the file with mode 0600 (owner read/write only). A new file is created exclusively; with
    /// `replacing`, the contents go to a 0600 temporary file in the same directory that is then renamed over
    /// `path`, so a crash never leaves a half-written keystore.
    /// - Throws: ``KeystoreError/io(path:reason:)``, e.g. when `path` exists and `replacing` is false.
    public func write(to path: String, replacing: Bool = false) throws(KeystoreError) {
        let data = [UInt8](jsonData())
        if replacing { try Self.replace(path, with: data) } else { try Self.writeExclusively(data, to: path) }
    }

    /// Writes `data` (mode 0600) to a temporary file beside `path` and renames it over `path`: readers see the old
    /// file or the new one, never a part.
    static func replace(_ path: String, with data: [UInt8]) throws(KeystoreError) {
        let temporary = path + ".tmp-" + UUID().uuidString.prefix(8)
        try Self.writeExclusively(data, to: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, reason: reason)
        }
    }

    static func writeExclusively(_ bytes: [UInt8], to path: String) throws(KeystoreError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(path)
                throw .io(path: path, reason: reason)
            }
            written += n
        }
        guard fsync(fd) == 0, close(fd) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
    }
}

/// The POSIX `write(2)` (inside `Keystore` the name means the instance method).
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
