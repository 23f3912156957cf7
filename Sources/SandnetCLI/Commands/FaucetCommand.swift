import ArgumentParser
import EthereumTypes
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct FaucetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faucet", abstract: "Claim test ether from a running node's faucet.")

    @Argument(help: "Address to fund.")
    var address: String

    @Option(help: "The node's RPC URL.")
    var rpcUrl = "http://127.0.0.1:8545"

    func run() async throws {
        do { _ = try Address(parsing: address) } catch { throw CLIError("\(error)") }
        guard var components = URLComponents(string: rpcUrl), components.host != nil else {
            throw CLIError("invalid --rpc-url \(rpcUrl)")
        }
        components.path = "/api/claim"
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{\"address\": \"\(address)\"}".utf8)
        request.timeoutInterval = 10
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw CLIError("cannot reach \(rpcUrl): \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let message = body?["msg"] as? String ?? String(decoding: data, as: UTF8.self)
        guard status == 200 else { throw CLIError("faucet refused (HTTP \(status)): \(message)") }
        print(message)
    }
}
