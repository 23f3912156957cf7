/// The built-in explorer's page and style sheet, served at `/explorer` and `/explorer/app.css` (README, "Explorer").
/// Everything is here, in the binary: no CDN, no network fetch; the page's script is ``ExplorerScript``.
enum ExplorerPage {
    /// The one HTML document; the script routes by the URL's fragment (`#/block/12`, `#/tx/0x…`).
    static let html = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Sandnet explorer</title><link rel="stylesheet" href="/explorer/app.css"></head>
        <body>
        <header><h1><a href="#/">Sandnet explorer</a></h1>
        <nav><a href="#/">Latest</a> <a href="#/charts">Charts</a> <a href="#/tokens">Tokens</a> <a href="#/pool">Pool</a>
        <a href="#/icp">ICP ledger</a> <a href="#/faucet">Faucet</a></nav>
        <form id="search"><input id="q" placeholder="block number, transaction hash or address" size="44">
        <button type="submit">Go</button></form>
        <p class="status"><span id="head">…</span> · <span id="live">connecting</span></p></header>
        <main id="main"><p>loading…</p></main>
        <footer>Served by the node itself: no CDN, no network fetch. JSON-RPC at <code>/</code>, history from
        <code>/api</code>.</footer>
        <script src="/explorer/app.js"></script>
        </body></html>
        """#

    static let css = #"""
        body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 72em; padding: 0 1em; color: #1b1f24; }
        header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 1em; border-bottom: 1px solid #d0d7de; }
        header h1 { font-size: 1.3em; margin: .6em 0; }
        header h1 a { color: inherit; text-decoration: none; }
        nav a { margin-right: .6em; }
        .status { color: #57606a; font-size: .9em; }
        h2 { font-size: 1.1em; margin-top: 1.5em; }
        table { border-collapse: collapse; width: 100%; font-size: .92em; }
        th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #eaeef2; vertical-align: top; }
        table.fields th { width: 10em; color: #57606a; font-weight: normal; }
        .mono, code { font-family: ui-monospace, monospace; }
        .wrap { word-break: break-all; }
        .error { color: #cf222e; }
        .note, .empty { color: #57606a; }
        .status-success { color: #1a7f37; }
        .status-failed { color: #cf222e; }
        a { color: #0969da; }
        figure { margin: 1.2em 0; }
        figcaption { font-weight: 600; margin-bottom: .3em; }
        svg.chart { width: 100%; max-width: 48em; height: auto; background: #f6f8fa; border-radius: 4px; }
        svg .axis { stroke: #8c959f; }
        svg .line { fill: none; stroke: #0969da; stroke-width: 2; }
        svg .p25, svg .p75 { stroke: #8c959f; stroke-width: 1; stroke-dasharray: 4 3; }
        svg .bar { fill: #54aeff; }
        svg .label { font-size: 11px; fill: #57606a; }
        footer { margin: 3em 0 1em; color: #57606a; font-size: .85em; }
        """#
}
