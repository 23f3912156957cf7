/// The built-in explorer's script, served at `/explorer/app.js` (README, "Explorer"): hash routes for the latest
/// blocks and transactions (live over `eth_subscribe newHeads`, polling when the WebSocket fails), a block, a
/// transaction with its native-contract call and logs decoded, an address (balances, history from `/api`), tokens,
/// the pool, charts (a small SVG helper: base fee, gas used ratio, transactions per block, priority fees), the ICP
/// ledger and the faucet. Everything shown goes into the DOM as text, never as HTML.
enum ExplorerScript {
    static let source = #"""
        'use strict';
        // Sandnet explorer: one page, hash routes (#/block/N, #/tx/HASH, #/address/ADDR, #/tokens, #/pool, #/charts,
        // #/icp, #/faucet). Everything the page shows is put in the DOM as text (textContent, setAttribute), never as
        // HTML: a token name or memo holding markup stays text.

        const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
        const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
        const DEPOSIT = '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c';
        const WITHDRAWAL = '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65';
        // Selectors of the native contracts' functions: name and argument types the page decodes ('' = not decoded).
        const SELECTORS = {
          a9059cbb: ['transfer', ['address to', 'amount value']],
          '095ea7b3': ['approve', ['address spender', 'amount value']],
          '23b872dd': ['transferFrom', ['address from', 'address to', 'amount value']],
          d0e30db0: ['deposit', []],
          '2e1a7d4d': ['withdraw', ['amount wad']],
          '39509351': ['increaseAllowance', ['address spender', 'amount added']],
          a457c2d7: ['decreaseAllowance', ['address spender', 'amount subtracted']],
          d505accf: ['permit', ['address owner', 'address spender', 'amount value', 'uint deadline']],
          '252dba42': ['aggregate (Multicall3)', null],
          '82ad56cb': ['aggregate3 (Multicall3)', null],
          '174dea71': ['aggregate3Value (Multicall3)', null],
          bce38bd7: ['tryAggregate (Multicall3)', null],
          c3077fa9: ['blockAndAggregate (Multicall3)', null],
          '399542e9': ['tryBlockAndAggregate (Multicall3)', null],
        };
        const PAGE = 10;

        // ---- DOM helpers: every string becomes a text node ----
        function h(tag, attrs, ...kids) {
          const e = document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) {
            if (v !== null && v !== undefined) e.setAttribute(k, String(v));
          }
          for (const k of kids.flat(Infinity)) {
            if (k === null || k === undefined || k === false) continue;
            e.append(k instanceof Node ? k : document.createTextNode(String(k)));
          }
          return e;
        }
        const link = (href, text, attrs) => h('a', Object.assign({ href: '#/' + href }, attrs || {}), text);
        const blockLink = (n) => link('block/' + n, String(n));
        const txLink = (hash) => link('tx/' + hash, short(hash), { title: hash, class: 'mono' });
        const addrLink = (a) => (a ? link('address/' + a, tokenLabel(a) || short(a), { title: a, class: 'mono' }) : '—');
        const short = (s) => (s && s.length > 20 ? s.slice(0, 10) + '…' + s.slice(-6) : s || '');
        function table(id, headers, rows, empty) {
          if (!rows.length) return h('p', { id, class: 'empty' }, empty || 'nothing yet');
          return h('table', { id }, h('thead', {}, h('tr', {}, headers.map((t) => h('th', {}, t)))), h('tbody', {}, rows));
        }
        const fields = (id, pairs) =>
          h('table', { id, class: 'fields' }, h('tbody', {}, pairs.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v)))));
        const section = (title, ...kids) => h('section', {}, h('h2', {}, title), kids);

        // ---- numbers ----
        const big = (x) => (x === null || x === undefined ? 0n : BigInt(x));
        const hex = (n) => '0x' + BigInt(n).toString(16);
        function units(value, decimals) {
          const v = big(value);
          const neg = v < 0n;
          const s = (neg ? -v : v).toString().padStart(decimals + 1, '0');
          const whole = s.slice(0, s.length - decimals);
          const frac = decimals ? s.slice(s.length - decimals).replace(/0+$/, '') : '';
          return (neg ? '-' : '') + whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? '.' + frac : '');
        }
        const eth = (wei) => units(wei, 18) + ' ETH';
        const gwei = (wei) => units(wei, 9) + ' gwei';
        const time = (t) => new Date(Number(big(t)) * 1000).toISOString().replace('.000Z', 'Z');

        // ---- the node: JSON-RPC over HTTP POST / ----
        let rpcID = 0;
        async function post(body) {
          const r = await fetch('/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
          return r.json();
        }
        async function rpc(method, params) {
          const j = await post({ jsonrpc: '2.0', id: ++rpcID, method, params: params || [] });
          if (j.error) throw new Error(method + ': ' + j.error.message);
          return j.result;
        }
        // A JSON-RPC batch; a failed call gives null in its place.
        async function batch(calls) {
          if (!calls.length) return [];
          const answers = await post(calls.map(([m, p], i) => ({ jsonrpc: '2.0', id: i, method: m, params: p })));
          const out = new Array(calls.length).fill(null);
          for (const a of Array.isArray(answers) ? answers : []) if (!a.error) out[a.id] = a.result;
          return out;
        }

        // ---- tokens: /api/info lists them; name and decimals read with eth_call ----
        let tokens = null;
        function abiString(data) {
          if (!data || data.length < 130) return '';
          const len = Number(BigInt('0x' + data.slice(66, 130)));
          const bytes = new Uint8Array(Math.min(len, 256));
          for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(data.slice(130 + 2 * i, 132 + 2 * i), 16);
          return new TextDecoder().decode(bytes);
        }
        async function loadTokens() {
          if (tokens) return tokens;
          const info = await (await fetch('/api/info')).json();
          const list = info.tokens || [];
          const calls = [];
          for (const t of list) {
            calls.push(['eth_call', [{ to: t.address, data: '0x06fdde03' }, 'latest']]);
            calls.push(['eth_call', [{ to: t.address, data: '0x313ce567' }, 'latest']]);
            calls.push(['eth_call', [{ to: t.address, data: '0x18160ddd' }, 'latest']]);
          }
          const r = await batch(calls);
          tokens = list.map((t, i) => ({
            symbol: t.symbol, address: t.address.toLowerCase(), checksummed: t.address, payout: t.payout,
            name: abiString(r[3 * i]), decimals: r[3 * i + 1] ? Number(BigInt(r[3 * i + 1])) : 18, supply: r[3 * i + 2],
          }));
          return tokens;
        }
        const tokenAt = (a) => (tokens && a ? tokens.find((t) => t.address === a.toLowerCase()) : undefined);
        const tokenLabel = (a) => (tokenAt(a) ? tokenAt(a).symbol : '');

        // ---- decoding native-contract calls and logs ----
        const word = (data, i) => '0x' + data.slice(10 + 64 * i, 74 + 64 * i);
        const wordAddress = (w) => '0x' + w.slice(-40);
        function decodeCall(tx) {
          const input = tx.input || '0x';
          if (input.length < 10) return null;
          const known = SELECTORS[input.slice(2, 10)];
          if (!known) return { name: 'unknown function ' + input.slice(0, 10), args: [] };
          const [name, types] = known;
          const token = tokenAt(tx.to);
          const args = (types || []).map((spec, i) => {
            const [type, label] = spec.split(' ');
            const w = word(input, i);
            if (w.length < 66) return [label, '(missing)'];
            if (type === 'address') return [label, addrLink(wordAddress(w))];
            if (type === 'amount') return [label, token ? units(w, token.decimals) + ' ' + token.symbol : big(w).toString()];
            return [label, big(w).toString()];
          });
          return { name, args };
        }
        function decodeLog(log) {
          const token = tokenAt(log.address);
          const sym = token ? token.symbol : '';
          const amount = (w) => (token ? units(w, token.decimals) + ' ' + sym : big(w).toString());
          const t = log.topics || [];
          const data = log.data && log.data.length >= 66 ? log.data.slice(0, 66) : '0x0';
          if (t[0] === TRANSFER && t.length === 3) return ['Transfer', addrLink(wordAddress(t[1])), ' → ', addrLink(wordAddress(t[2])), ' ', amount(data)];
          if (t[0] === APPROVAL && t.length === 3) return ['Approval', addrLink(wordAddress(t[1])), ' lets ', addrLink(wordAddress(t[2])), ' spend ', amount(data)];
          if (t[0] === DEPOSIT && t.length === 2) return ['Deposit', addrLink(wordAddress(t[1])), ' ', amount(data)];
          if (t[0] === WITHDRAWAL && t.length === 2) return ['Withdrawal', addrLink(wordAddress(t[1])), ' ', amount(data)];
          return [t[0] ? short(t[0]) : '(anonymous)', 'topics ' + t.length + ', data ' + short(log.data)];
        }

        // ---- pages ----
        const routes = [];
        const route = (re, render) => routes.push([re, render]);

        async function blocksFrom(head, count, full) {
          const numbers = [];
          for (let n = head; n >= 0 && numbers.length < count; n--) numbers.push(n);
          const blocks = await batch(numbers.map((n) => ['eth_getBlockByNumber', [hex(n), full]]));
          return blocks.filter((b) => b);
        }

        route(/^$/, async () => {
          const [head, gasPrice, profile, chainId] = await batch([
            ['eth_blockNumber', []], ['eth_gasPrice', []], ['sandnet_getFeeProfile', []], ['eth_chainId', []],
          ]);
          const blocks = await blocksFrom(Number(big(head)), PAGE, true);
          const txs = blocks.flatMap((b) => b.transactions).slice(0, PAGE);
          const latest = blocks[0];
          return [
            fields('summary', [
              ['Chain id', String(big(chainId))], ['Head block', latest ? blockLink(Number(big(latest.number))) : '—'],
              ['Base fee', latest ? gwei(latest.baseFeePerGas) : '—'], ['Gas price', gwei(gasPrice)],
              ['Fee profile', profile || '—'],
            ]),
            section('Latest blocks', table('latest-blocks', ['Block', 'Time', 'Transactions', 'Gas used', 'Base fee'],
              blocks.map((b) => h('tr', { 'data-number': Number(big(b.number)) }, h('td', {}, blockLink(Number(big(b.number)))),
                h('td', {}, time(b.timestamp)), h('td', {}, b.transactions.length),
                h('td', {}, Number(big(b.gasUsed)).toLocaleString('en')), h('td', {}, gwei(b.baseFeePerGas)))))),
            section('Latest transactions', table('latest-txs', ['Hash', 'Block', 'From', 'To', 'Value'],
              txs.map((t) => h('tr', { 'data-hash': t.hash }, h('td', {}, txLink(t.hash)),
                h('td', {}, blockLink(Number(big(t.blockNumber)))), h('td', {}, addrLink(t.from)),
                h('td', {}, addrLink(t.to)), h('td', {}, eth(t.value)))), 'no transactions in the latest blocks')),
          ];
        });

        route(/^block\/(0x[0-9a-fA-F]{64}|\d+)$/, async (id) => {
          const b = id.startsWith('0x') ? await rpc('eth_getBlockByHash', [id, true])
            : await rpc('eth_getBlockByNumber', [hex(id), true]);
          if (!b) return h('p', { class: 'error' }, 'no block ' + id);
          const n = Number(big(b.number));
          return [
            h('h2', {}, 'Block ' + n),
            h('p', { class: 'nav' }, n > 0 ? link('block/' + (n - 1), '← parent') : '', ' ', link('block/' + (n + 1), 'next →')),
            fields('block', [
              ['Hash', h('span', { class: 'mono' }, b.hash)], ['Parent', n > 0 ? link('block/' + b.parentHash, b.parentHash, { class: 'mono' }) : b.parentHash],
              ['Time', time(b.timestamp)], ['Miner', addrLink(b.miner)],
              ['Gas used', Number(big(b.gasUsed)).toLocaleString('en') + ' of ' + Number(big(b.gasLimit)).toLocaleString('en')],
              ['Base fee', gwei(b.baseFeePerGas)], ['State root', h('span', { class: 'mono' }, b.stateRoot)],
            ]),
            section('Transactions (' + b.transactions.length + ')', table('block-txs', ['#', 'Hash', 'From', 'To', 'Value', 'Call'],
              b.transactions.map((t) => {
                const call = decodeCall(t);
                return h('tr', {}, h('td', {}, Number(big(t.transactionIndex))), h('td', {}, txLink(t.hash)),
                  h('td', {}, addrLink(t.from)), h('td', {}, addrLink(t.to)), h('td', {}, eth(t.value)),
                  h('td', {}, call ? call.name : 'transfer'));
              }), 'an empty block')),
          ];
        });

        route(/^tx\/(0x[0-9a-fA-F]{64})$/, async (hash) => {
          const [t, r] = await batch([['eth_getTransactionByHash', [hash]], ['eth_getTransactionReceipt', [hash]]]);
          if (!t) return h('p', { class: 'error' }, 'no transaction ' + hash);
          const call = decodeCall(t);
          const status = !r ? 'pending' : r.status === '0x1' ? 'success' : 'failed';
          return [
            h('h2', {}, 'Transaction'),
            fields('tx', [
              ['Hash', h('span', { class: 'mono' }, t.hash)], ['Status', h('span', { class: 'status-' + status }, status)],
              ['Block', t.blockNumber ? blockLink(Number(big(t.blockNumber))) : 'pending'],
              ['From', addrLink(t.from)], ['To', t.to ? addrLink(t.to) : 'contract creation'], ['Value', eth(t.value)],
              ['Nonce', String(big(t.nonce))], ['Type', String(big(t.type))],
              ['Gas', r ? Number(big(r.gasUsed)).toLocaleString('en') + ' used of ' + Number(big(t.gas)).toLocaleString('en') : String(big(t.gas))],
              ['Gas price', r ? gwei(r.effectiveGasPrice) : gwei(t.maxFeePerGas || t.gasPrice)],
              ['Call', call ? h('span', { id: 'call' }, call.name, call.args.map(([k, v]) => [' ', k, ' = ', v])) : 'plain ETH transfer'],
              ['Input', h('span', { class: 'mono wrap' }, t.input)],
            ]),
            section('Logs', table('logs', ['#', 'Contract', 'Event', 'Decoded'], (r ? r.logs : []).map((l) => {
              const [name, ...rest] = decodeLog(l);
              return h('tr', {}, h('td', {}, Number(big(l.logIndex))), h('td', {}, addrLink(l.address)), h('td', {}, name), h('td', {}, rest));
            }), 'no logs')),
          ];
        });

        // The address's history from the node's Etherscan-compatible API (/api); when the node has none, the latest
        // blocks scanned in the page.
        async function etherscan(action, address, page) {
          const q = new URLSearchParams({ module: 'account', action, address, page, offset: PAGE, sort: 'desc' });
          try {
            const r = await fetch('/api?' + q);
            if (!r.ok) return null;
            const j = await r.json();
            if (j.status === '1' && Array.isArray(j.result)) return j.result;
            if (j.status === '0' && Array.isArray(j.result)) return [];
            return { error: String(j.result) };
          } catch (e) {
            return null;
          }
        }
        route(/^address\/(0x[0-9a-fA-F]{40})(?:\/(\d+))?$/, async (address, pageText) => {
          const page = Math.max(1, Number(pageText || 1));
          await loadTokens();
          const [balance, nonce, code] = await batch([
            ['eth_getBalance', [address, 'latest']], ['eth_getTransactionCount', [address, 'latest']], ['eth_getCode', [address, 'latest']],
          ]);
          const owner = '0x000000000000000000000000' + address.slice(2).toLowerCase();
          const held = await batch(tokens.map((t) => ['eth_call', [{ to: t.address, data: '0x70a08231' + owner.slice(2) }, 'latest']]));
          const token = tokenAt(address);
          const out = [
            h('h2', {}, 'Address'),
            fields('address', [
              ['Address', h('span', { class: 'mono' }, address)], ['Balance', h('span', { id: 'balance' }, eth(balance))],
              ['Nonce', String(big(nonce))],
              ['Code', token ? 'native token ' + token.symbol + ' (' + token.name + ')' : code && code !== '0x' ? 'native contract' : 'none (an account)'],
            ]),
            section('Token balances', table('token-balances', ['Token', 'Balance'], tokens.map((t, i) =>
              h('tr', {}, h('td', {}, addrLink(t.checksummed)), h('td', {}, units(held[i] || '0x0', t.decimals) + ' ' + t.symbol))), 'no native tokens')),
          ];
          const history = await etherscan('txlist', address, page);
          if (history === null || history.error) {
            const why = history ? history.error : 'the node serves no Etherscan-compatible API at /api';
            const head = Number(big(await rpc('eth_blockNumber')));
            const blocks = await blocksFrom(head, 64, true);
            const mine = blocks.flatMap((b) => b.transactions)
              .filter((t) => t.from.toLowerCase() === address.toLowerCase() || (t.to || '').toLowerCase() === address.toLowerCase());
            out.push(section('Transactions',
              h('p', { id: 'history-note', class: 'note' }, 'History unavailable (' + why + '); showing this address\'s transactions in the latest 64 blocks.'),
              table('history', ['Hash', 'Block', 'From', 'To', 'Value'], mine.map((t) => h('tr', { 'data-hash': t.hash },
                h('td', {}, txLink(t.hash)), h('td', {}, blockLink(Number(big(t.blockNumber)))), h('td', {}, addrLink(t.from)),
                h('td', {}, addrLink(t.to)), h('td', {}, eth(t.value)))), 'none in the latest 64 blocks')));
            return out;
          }
          out.push(section('Transactions (page ' + page + ')',
            table('history', ['Hash', 'Block', 'Time', 'From', 'To', 'Value', 'Method'], history.map((t) => h('tr', { 'data-hash': t.hash },
              h('td', {}, txLink(t.hash)), h('td', {}, blockLink(t.blockNumber)), h('td', {}, time(t.timeStamp)),
              h('td', {}, addrLink(t.from)), h('td', {}, addrLink(t.to)), h('td', {}, eth(t.value)),
              h('td', {}, t.functionName || t.methodId || ''))), 'no transactions'),
            h('p', { class: 'nav' }, page > 1 ? link('address/' + address + '/' + (page - 1), '← newer') : '', ' ',
              history.length === PAGE ? link('address/' + address + '/' + (page + 1), 'older →', { id: 'older' }) : '')));
          const transfers = await etherscan('tokentx', address, page);
          if (Array.isArray(transfers)) {
            out.push(section('Token transfers (page ' + page + ')', table('token-transfers', ['Hash', 'Block', 'Token', 'From', 'To', 'Amount'],
              transfers.map((t) => h('tr', {}, h('td', {}, txLink(t.hash)), h('td', {}, blockLink(t.blockNumber)),
                h('td', {}, addrLink(t.contractAddress)), h('td', {}, addrLink(t.from)), h('td', {}, addrLink(t.to)),
                h('td', {}, units(t.value, Number(t.tokenDecimal || 0)) + ' ' + (t.tokenSymbol || '')))), 'no token transfers')));
          }
          return out;
        });

        route(/^tokens$/, async () => {
          await loadTokens();
          return section('Tokens', table('tokens', ['Symbol', 'Name', 'Decimals', 'Total supply', 'Address', 'Faucet payout'],
            tokens.map((t) => h('tr', { 'data-address': t.address }, h('td', { class: 'symbol' }, t.symbol), h('td', { class: 'name' }, t.name),
              h('td', {}, t.decimals), h('td', {}, t.supply ? units(t.supply, t.decimals) : '—'),
              h('td', {}, link('address/' + t.checksummed, t.checksummed, { class: 'mono' })), h('td', {}, t.payout))),
            'this chain has no native tokens'));
        });

        route(/^pool$/, async () => {
          const pool = await rpc('txpool_content');
          const rows = (group) => Object.entries(pool[group] || {}).flatMap(([from, byNonce]) => Object.entries(byNonce).map(([nonce, t]) =>
            h('tr', { 'data-hash': t.hash }, h('td', {}, addrLink(from)), h('td', {}, nonce), h('td', {}, txLink(t.hash)),
              h('td', {}, addrLink(t.to)), h('td', {}, eth(t.value)), h('td', {}, gwei(t.maxFeePerGas || t.gasPrice)))));
          const headers = ['From', 'Nonce', 'Hash', 'To', 'Value', 'Max fee'];
          return [section('Pending', table('pending', headers, rows('pending'), 'no pending transactions')),
            section('Queued (waiting for an earlier nonce)', table('queued', headers, rows('queued'), 'no queued transactions'))];
        });

        // ---- charts: a small SVG helper; each chart keeps its numbers in data-values ----
        function chart(id, title, values, opts) {
          const W = 640, H = 160, P = 30;
          const ns = 'http://www.w3.org/2000/svg';
          const svg = document.createElementNS(ns, 'svg');
          const set = (e, a) => { for (const [k, v] of Object.entries(a)) e.setAttribute(k, String(v)); return e; };
          set(svg, { id, viewBox: `0 0 ${W} ${H}`, class: 'chart', 'data-values': JSON.stringify(values), role: 'img' });
          const max = Math.max(opts.max || 0, ...values, 1e-12);
          const x = (i) => P + (values.length < 2 ? 0 : (i * (W - 2 * P)) / (values.length - 1));
          const y = (v) => H - P - (v / max) * (H - 2 * P);
          const add = (tag, a, text) => { const e = set(document.createElementNS(ns, tag), a); if (text !== undefined) e.textContent = text; svg.append(e); return e; };
          add('line', { x1: P, y1: H - P, x2: W - P, y2: H - P, class: 'axis' });
          add('text', { x: 2, y: P - 8, class: 'label' }, opts.format(max));
          add('text', { x: 2, y: H - P + 4, class: 'label' }, '0');
          if (opts.bars) {
            const bw = Math.max(2, (W - 2 * P) / Math.max(values.length, 1) - 2);
            values.forEach((v, i) => {
              const bar = add('rect', { x: P + i * ((W - 2 * P) / values.length), y: y(v), width: bw, height: H - P - y(v), class: 'bar' });
              const tip = document.createElementNS(ns, 'title');
              tip.textContent = opts.labels[i] + ': ' + opts.format(v);
              bar.append(tip);
            });
          } else {
            for (const [series, cls] of opts.series || [[values, 'line']]) {
              add('polyline', { points: series.map((v, i) => x(i).toFixed(1) + ',' + y(v).toFixed(1)).join(' '), class: cls });
            }
          }
          add('text', { x: P, y: H - 6, class: 'label' }, opts.labels[0] || '');
          add('text', { x: W - P, y: H - 6, class: 'label', 'text-anchor': 'end' }, opts.labels[opts.labels.length - 1] || '');
          return h('figure', {}, h('figcaption', {}, title), svg);
        }
        route(/^charts$/, async () => {
          const COUNT = 32;
          const [history, profile] = await batch([['eth_feeHistory', [hex(COUNT), 'latest', [25, 50, 75]]], ['sandnet_getFeeProfile', []]]);
          if (!history) return h('p', { class: 'error' }, 'eth_feeHistory failed');
          const oldest = Number(big(history.oldestBlock));
          const n = history.gasUsedRatio.length;
          const labels = Array.from({ length: n }, (_, i) => 'block ' + (oldest + i));
          const blocks = await batch(labels.map((_, i) => ['eth_getBlockByNumber', [hex(oldest + i), false]]));
          const baseFees = history.baseFeePerGas.slice(0, n).map((v) => Number(big(v)) / 1e9);
          const ratios = history.gasUsedRatio.map((v) => Math.round(v * 10000) / 100);
          const counts = blocks.map((b) => (b ? b.transactions.length : 0));
          const tips = [0, 1, 2].map((p) => (history.reward || []).map((r) => Number(big(r[p])) / 1e9));
          const g = (v) => (Math.round(v * 1e4) / 1e4).toString() + ' gwei';
          return [
            h('p', { class: 'note' }, 'The latest ' + n + ' blocks (' + (labels[0] || '') + ' to ' + (labels[n - 1] || '') + '), from eth_feeHistory. Fee profile: ',
              h('strong', { id: 'fee-profile' }, profile || '—'), ' (the ambient traffic\'s tips; sandnet_setFeeProfile changes it).'),
            chart('chart-basefee', 'Base fee per block (gwei)', baseFees, { labels, format: g }),
            chart('chart-gasratio', 'Gas used / gas limit (%)', ratios, { labels, format: (v) => v + ' %', bars: true, max: 100 }),
            chart('chart-txcount', 'Transactions per block', counts, { labels, format: (v) => String(v), bars: true }),
            chart('chart-tips', 'Priority fees paid: 25th, 50th and 75th percentile (gwei)', tips[1],
              { labels, format: g, series: [[tips[0], 'line p25'], [tips[1], 'line'], [tips[2], 'line p75']] }),
          ];
        });

        // ---- the ICP ledger: sandnet_icpInfo and sandnet_icpBlocks ----
        const icp = (e8s) => (e8s === null ? '—' : units(e8s, 8) + ' ICP');
        function memoText(b) {
          if (!b.icrc1Memo) return b.memo === '0' ? '' : 'memo ' + b.memo;
          const bytes = new Uint8Array((b.icrc1Memo.match(/../g) || []).map((x) => parseInt(x, 16)));
          try { return new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { return '0x' + b.icrc1Memo; }
        }
        route(/^icp$/, async () => {
          let info;
          try { info = await rpc('sandnet_icpInfo'); } catch (e) { return h('p', { class: 'note' }, 'This node serves no ICP ledger (--no-icp).'); }
          const length = Number(info.chainLength);
          const start = Math.max(0, length - 20);
          const answer = await rpc('sandnet_icpBlocks', [start, length - start]);
          const blocks = answer.blocks.slice().reverse();
          const accounts = [...new Set(blocks.flatMap((b) => [b.from, b.to, b.spender]).filter((a) => a))].slice(0, 20);
          const balances = await batch(accounts.map((a) => ['sandnet_icpBalance', [a]]));
          return [
            h('h2', {}, 'ICP ledger'),
            fields('icp-info', [['Canister', info.canisterId], ['Token', info.symbol], ['Blocks', String(length)],
              ['Fee', icp(info.feeE8s)], ['Minting account', h('span', { class: 'mono' }, info.mintingAccount)]]),
            section('Latest ledger blocks', table('icp-blocks', ['#', 'Time', 'Operation', 'From', 'To', 'Amount', 'Fee', 'Memo'],
              blocks.map((b) => h('tr', { 'data-index': b.index }, h('td', {}, b.index),
                h('td', {}, new Date(Number(BigInt(b.timestamp) / 1000000n)).toISOString()), h('td', {}, b.operation),
                h('td', { class: 'mono', title: b.from || '' }, short(b.from || '')), h('td', { class: 'mono', title: b.to || b.spender || '' }, short(b.to || b.spender || '')),
                h('td', {}, icp(b.amount || b.allowance)), h('td', {}, b.fee ? icp(b.fee) : ''), h('td', { class: 'memo' }, memoText(b)))), 'no blocks')),
            section('Accounts in these blocks', table('icp-accounts', ['Account', 'Balance'],
              accounts.map((a, i) => h('tr', {}, h('td', { class: 'mono' }, a), h('td', {}, icp(balances[i])))), 'none')),
          ];
        });

        // ---- the faucet: POST /api/claim, as /faucet does ----
        route(/^faucet$/, async () => {
          await loadTokens();
          const input = h('input', { id: 'faucet-address', placeholder: '0x… address', required: '', size: 44 });
          const select = h('select', { id: 'faucet-token' }, h('option', { value: '' }, 'ETH'), tokens.map((t) => h('option', { value: t.symbol }, t.payout + ' ' + t.symbol)));
          const out = h('p', { id: 'faucet-result' });
          const form = h('form', { id: 'faucet-form' }, input, ' ', select, ' ', h('button', { type: 'submit' }, 'Claim'));
          form.addEventListener('submit', async (e) => {
            e.preventDefault();
            out.replaceChildren('sending…');
            const body = { address: input.value.trim() };
            if (select.value) body.token = select.value;
            const r = await fetch('/api/claim', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
            const msg = (await r.json()).msg || '';
            const m = /0x[0-9a-fA-F]{64}/.exec(msg);
            out.replaceChildren(r.ok && m ? h('span', {}, 'Sent: ', link('tx/' + m[0], m[0], { id: 'faucet-tx', class: 'mono' })) : h('span', { class: 'error' }, msg));
          });
          return section('Faucet', h('p', {}, 'A claim is a real signed transaction from the faucet account; it appears in the next block.'), form, out);
        });

        // ---- search, router, live updates ----
        function search(text) {
          const q = text.trim();
          if (/^\d+$/.test(q)) location.hash = '#/block/' + q;
          else if (/^0x[0-9a-fA-F]{40}$/.test(q)) location.hash = '#/address/' + q;
          else if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
            rpc('eth_getTransactionByHash', [q]).then((t) => { location.hash = t ? '#/tx/' + q : '#/block/' + q; });
          }
        }
        let rendering = null;
        let dirty = false;
        async function render() {
          if (rendering) { dirty = true; return rendering; }
          const path = location.hash.replace(/^#\/?/, '');
          const main = document.getElementById('main');
          rendering = (async () => {
            for (const [re, page] of routes) {
              const m = re.exec(path);
              if (!m) continue;
              try {
                const content = await page(...m.slice(1));
                main.replaceChildren(...[content].flat());
              } catch (e) {
                main.replaceChildren(h('p', { class: 'error' }, String(e.message || e)));
              }
              main.setAttribute('data-route', path || 'home');
              return;
            }
            main.replaceChildren(h('p', { class: 'error' }, 'no such page: ' + path));
          })();
          await rendering;
          rendering = null;
          if (dirty) { dirty = false; return render(); }
        }
        // Pages that show the head follow it.
        const LIVE = /^(|charts|pool)$/;
        function onHead(n) {
          shownHead = -1;  // a reorg or revert may lower the head: the subscription's word is the latest
          showHead(n);
          if (LIVE.test(location.hash.replace(/^#\/?/, ''))) render();
        }
        function live() {
          const status = document.getElementById('live');
          const poll = () => {
            status.textContent = 'polling';
            let last = -1;
            setInterval(async () => {
              try { const n = Number(big(await rpc('eth_blockNumber'))); if (n !== last) { last = n; onHead(n); } } catch (e) { /* retried */ }
            }, 2000);
          };
          let ws;
          try { ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/'); } catch (e) { return poll(); }
          let opened = false;
          ws.onopen = () => { opened = true; status.textContent = 'live'; ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] })); };
          ws.onmessage = (e) => {
            const m = JSON.parse(e.data);
            if (m.method === 'eth_subscription' && m.params && m.params.result && m.params.result.number) onHead(Number(big(m.params.result.number)));
          };
          ws.onclose = () => { if (opened) setTimeout(live, 1000); else poll(); };
        }
        window.addEventListener('hashchange', render);
        document.getElementById('search').addEventListener('submit', (e) => { e.preventDefault(); search(document.getElementById('q').value); });
        let shownHead = -1;
        function showHead(n) {
          if (n < shownHead) return;
          shownHead = n;
          document.getElementById('head').textContent = 'block ' + n;
        }
        rpc('eth_blockNumber').then((n) => showHead(Number(big(n))), () => {});
        loadTokens().catch(() => { tokens = []; }).finally(() => { render(); live(); });
        """#
}
