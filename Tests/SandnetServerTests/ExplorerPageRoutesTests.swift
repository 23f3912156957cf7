import Foundation
import SandnetServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The explorer's three files over HTTP on 127.0.0.1 (the page itself is tested in a browser:
/// Tests/Interop/test_explorer.py).
@Suite struct ExplorerPageRoutesTests {
    func get(_ node: RunningNode, _ path: String) async throws -> (HTTPURLResponse, String) {
        let url = URL(string: "http://127.0.0.1:\(node.port)\(path)")!
        let (data, response) = try await URLSession.shared.data(from: url)
        return (response as! HTTPURLResponse, String(decoding: data, as: UTF8.self))
    }

    @Test func thePageItsScriptAndStyleComeFromTheBinaryAndLoadNothingElse() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        for path in ["/explorer", "/explorer/"] {
            let (response, html) = try await get(node, path)
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
            #expect(html.contains(#"<script src="/explorer/app.js"></script>"#))
            #expect(html.contains(#"<link rel="stylesheet" href="/explorer/app.css">"#))
            // Nothing from another origin: no absolute URL in the page.
            #expect(!html.contains("http:") && !html.contains("https:") && !html.contains("//cdn"))
            let policy = try #require(response.value(forHTTPHeaderField: "Content-Security-Policy"))
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
            #expect(policy.contains("connect-src 'self'"))
        }
        let (script, source) = try await get(node, "/explorer/app.js")
        #expect(script.value(forHTTPHeaderField: "Content-Type") == "text/javascript; charset=utf-8")
        #expect(source.contains("eth_subscribe") && source.contains("eth_feeHistory"))
        // The page never builds HTML from strings.
        #expect(!source.contains("innerHTML") && !source.contains("insertAdjacentHTML") && !source.contains("eval("))
        let (style, _) = try await get(node, "/explorer/app.css")
        #expect(style.value(forHTTPHeaderField: "Content-Type") == "text/css; charset=utf-8")
    }
}
