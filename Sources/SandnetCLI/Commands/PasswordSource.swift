import ArgumentParser
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a password comes from: a file (its first line), an environment variable, or a prompt on the
/// terminal with echo off. Passwords are never accepted as plain arguments, which `ps` would show.
struct PasswordOptions: ParsableArguments {
    @Option(help: "Read the password from the first line of FILE.")
    var passwordFile: String?

    @Option(help: "Read the password from the environment variable VAR.")
    var passwordEnv: String?

    func validate() throws {
        if passwordFile != nil && passwordEnv != nil {
            throw ValidationError("use either --password-file or --password-env, not both")
        }
    }

    /// The password bytes (UTF-8, not normalised).
    func password(prompt: String, confirm: Bool = false) throws -> [UInt8] {
        try PasswordSource.read(file: passwordFile, environment: passwordEnv, prompt: prompt, confirm: confirm)
    }
}

/// The new password of `keystore change-password`.
struct NewPasswordOptions: ParsableArguments {
    @Option(help: "Read the new password from the first line of FILE.")
    var newPasswordFile: String?

    @Option(help: "Read the new password from the environment variable VAR.")
    var newPasswordEnv: String?

    func validate() throws {
        if newPasswordFile != nil && newPasswordEnv != nil {
            throw ValidationError("use either --new-password-file or --new-password-env, not both")
        }
    }

    func password() throws -> [UInt8] {
        try PasswordSource.read(
            file: newPasswordFile, environment: newPasswordEnv, prompt: "New password: ", confirm: true)
    }
}

enum PasswordSource {
    static func read(file: String?, environment: String?, prompt: String, confirm: Bool) throws -> [UInt8] {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("cannot read password file \(file)")
            }
            var bytes = [UInt8](data)
            if let newline = bytes.firstIndex(of: 0x0a) { bytes.removeSubrange(newline...) }
            if bytes.last == 0x0d { bytes.removeLast() }
            return bytes
        }
        if let environment {
            guard let value = ProcessInfo.processInfo.environment[environment] else {
                throw CLIError("environment variable \(environment) is not set")
            }
            return Array(value.utf8)
        }
        let first = try promptWithoutEcho(prompt)
        if confirm {
            guard try promptWithoutEcho("Repeat: ") == first else { throw CLIError("the passwords do not match") }
        }
        return first
    }

    /// Reads one line from the controlling terminal with echo turned off, restoring the terminal afterwards.
    static func promptWithoutEcho(_ prompt: String) throws -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else {
            throw CLIError("no terminal to prompt for a password; use --password-file or --password-env")
        }
        defer { close(fd) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { throw CLIError("cannot read the terminal settings") }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ICANON)
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { throw CLIError("cannot turn off terminal echo") }
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &original)
            _ = terminalWrite(fd, Array("\n".utf8))
        }
        _ = terminalWrite(fd, Array(prompt.utf8))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = readByte(fd, &byte)
            if n < 0 && errno == EINTR { continue }
            guard n == 1, byte != 0x0a else { break }
            line.append(byte)
        }
        if line.last == 0x0d { line.removeLast() }
        return line
    }
}

private func terminalWrite(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

private func readByte(_ fd: Int32, _ byte: inout UInt8) -> Int {
    read(fd, &byte, 1)
}
