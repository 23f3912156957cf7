import ArgumentParser
import Foundation
import TLSCertificates

/// `sandnet node --tls …`: where the certificate comes from (README, "TLS").
struct TLSOptions: ParsableArguments {
    @Flag(help: "Serve every endpoint over TLS (https://, wss://) on the same port, with a local CA's certificate.")
    var tls = false

    @Option(
        help: ArgumentHelp(
            "Directory of the local CA and the server certificate (default: DATA-DIR/tls; --in-memory: the cache).",
            discussion: "The cache: $XDG_CACHE_HOME/sandnet/tls, else ~/.cache/sandnet/tls."))
    var tlsDir: String?

    @Option(help: "Another name or address for the server certificate (repeatable), e.g. my-mac.local.")
    var tlsName: [String] = []

    @Option(
        help: "Your own certificate chain (PEM, server certificate first) instead of the local CA's; with --tls-key.")
    var tlsCert: String?

    @Option(help: "The private key (PEM) of --tls-cert.")
    var tlsKey: String?

    func validate() throws {
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if !tls && (tlsCert != nil || tlsDir != nil || !tlsName.isEmpty) {
            throw ValidationError("--tls-dir, --tls-name and --tls-cert need --tls")
        }
        if tlsCert != nil && (tlsDir != nil || !tlsName.isEmpty) {
            throw ValidationError("--tls-cert brings its own names: --tls-dir and --tls-name are for the local CA")
        }
    }

    /// The directory of the local CA: `--tls-dir`, else beside the chain, else the user's cache.
    static func directory(flag: String?, dataDir: String?, environment: [String: String]) -> String {
        if let flag { return flag }
        if let dataDir { return dataDir + "/tls" }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/sandnet/tls" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/sandnet/tls"
    }

    /// The certificate and key to serve, or nil without `--tls`: the user's own, checked; or the local CA's for
    /// loopback, the machine's LAN addresses, `--host` when it names one, and `--tls-name`.
    func credentials(dataDir: String?, host: String) throws -> TLSServerCredentials? {
        guard tls else { return nil }
        do throws(TLSSetupError) {
            return try load(dataDir: dataDir, host: host)
        } catch {
            throw CLIError("--tls: \(error)")
        }
    }

    private func load(dataDir: String?, host: String) throws(TLSSetupError) -> TLSServerCredentials {
        if let tlsCert, let tlsKey {
            return try LocalCertificateAuthority.userCredentials(certificatePath: tlsCert, keyPath: tlsKey)
        }
        var names = TLSNames.loopback
        for address in LocalAddresses.lan() { try names.insert(address) }
        if host != "0.0.0.0" && host != "::" { try names.insert(host) }
        for name in tlsName { try names.insert(name) }
        let directory = Self.directory(flag: tlsDir, dataDir: dataDir, environment: ProcessInfo.processInfo.environment)
        return try LocalCertificateAuthority(directory: directory).credentials(
            names: names, hostName: ProcessInfo.processInfo.hostName)
    }
}
