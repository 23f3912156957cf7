import JSONCoding
import JSONRPC

/// A one-page faucet form at `/faucet`, posting to `/api/claim`. The node's own texts (network, payout) are written
/// into the page; the token list, whose symbols come from `--token` and may hold any characters, is added by the
/// script from `/api/info` as text, never as HTML.
enum FaucetPage {
    static func html(_ info: JSON) -> String {
        let payout = info["payout"]?.stringValue ?? "1"
        let network = info["network"]?.stringValue ?? "sandnet"
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
            <select id="t"><option value="">\(payout) ETH</option></select><button>Claim</button></form>
            <div id="out"></div>
            <script>
            fetch('/api/info').then((r) => r.json()).then((info) => {
              for (const t of info.tokens || []) {
                const option = document.createElement('option');
                option.value = t.symbol;
                option.textContent = t.payout + ' ' + t.symbol;
                document.getElementById('t').append(option);
              }
            });
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
}
