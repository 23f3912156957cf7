import JSONCoding
import JSONRPC

/// A one-page faucet form at `/faucet`, posting to `/api/claim`.
enum FaucetPage {
    static func html(_ info: JSON) -> String {
        let payout = escaped(info["payout"]?.stringValue ?? "1")
        let network = escaped(info["network"]?.stringValue ?? "sandnet")
        let tokens = (info["tokens"]?.arrayValue ?? []).compactMap { t -> String? in
            guard let symbol = t["symbol"]?.stringValue.map(escaped), let payout = t["payout"]?.stringValue else {
                return nil
            }
            return "<option value=\"\(symbol)\">\(escaped(payout)) \(symbol)</option>"
        }
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>Sandnet faucet</title>
            <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em}
            input{width:100%;padding:.5em;font-family:monospace}button{margin-top:1em;padding:.5em 1.5em}
            #out{margin-top:1em;font-family:monospace;word-break:break-all}</style></head>
            <body><h1>Sandnet faucet</h1>
            <p>Claim test ETH or tokens on \(network). Every claim is a real signed EIP-1559 transaction (a token claim
            a real <code>transfer</code> with its <code>Transfer</code> log).</p>
            <form id="f"><input id="a" placeholder="0x… address" required>
            <select id="t"><option value="">\(payout) ETH</option>\(tokens.joined())</select><button>Claim</button></form>
            <div id="out"></div>
            <script>
            document.getElementById('f').onsubmit = async (e) => {
              e.preventDefault();
              const r = await fetch('/api/claim', {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify(Object.assign({address: document.getElementById('a').value.trim()},
                  document.getElementById('t').value ? {token: document.getElementById('t').value} : {}))});
              document.getElementById('out').textContent = (await r.json()).msg;
            };
            </script></body></html>
            """
    }

    /// `text` as HTML text or a quoted attribute value: a token symbol holding markup (`--token` takes any 1 to 32
    /// bytes) is shown as the characters it is.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
