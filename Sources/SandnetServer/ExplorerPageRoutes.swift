import Hummingbird
import NIOCore

/// The built-in explorer (README, "Explorer"): `/explorer` (and `/explorer/`) serve one page whose script routes by
/// the URL's fragment, `/explorer/app.js` and `/explorer/app.css` its script and style. The page reads the node
/// through the same JSON-RPC (`POST /`, the WebSocket at `/`), `/api/info`, `/api/claim` and `/api` any client
/// uses: it has no API of its own.
extension NodeServer {
    /// What the explorer's answers may load: only this origin (the WebSocket included), no inline script, no frames.
    /// A markup that slipped past the page's text-only rendering still could not run or fetch anything.
    static let explorerContentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func addExplorerPageRoutes(to router: Router<NodeRequestContext>) {
        // Hummingbird's router treats `/explorer/` as `/explorer` (registering both traps).
        router.get("/explorer") { _, _ in Self.explorerAsset(ExplorerPage.html, type: "text/html; charset=utf-8") }
        router.get("/explorer/app.js") { _, _ in
            Self.explorerAsset(ExplorerScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get("/explorer/app.css") { _, _ in
            Self.explorerAsset(ExplorerPage.css, type: "text/css; charset=utf-8")
        }
    }

    static func explorerAsset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .contentSecurityPolicy: explorerContentSecurityPolicy, .cacheControl: "no-cache",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
