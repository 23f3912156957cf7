"""The built-in explorer at /explorer, used as a person would: headless Chromium (Debian's `chromium` and
`chromium-driver`) driven by Selenium, against a real `sandnet node`. Every wait is an explicit wait for an element
or a condition (the chain is still: blocks come only from the test's own transactions), never a sleep.

Screenshots go to .build/test-output/explorer/. Without chromium the test skips with the reason on a developer's
machine, and fails in CI (the CI environment variable set)."""
import json
import os
import shutil
import secrets

import httpx
import pytest

from conftest import ROOT, Node

# A native token whose symbol and name hold markup: the page must show them as text.
EVIL_ADDRESS = "0x00000000000000000000000000000000000000e1"
EVIL_SYMBOL = "<b>EV</b>"
EVIL_NAME = "<img src=x onerror=\"document.title='pwned'\">"
ICP_MEMO = "<i>memo</i>"
SHOTS = os.path.join(ROOT, ".build", "test-output", "explorer")
WAIT = 20  # seconds: a hang guard for each wait, never a verdict on speed


def chromium_paths():
    return (shutil.which("chromium") or "/usr/bin/chromium", shutil.which("chromedriver") or "/usr/bin/chromedriver")


@pytest.fixture(scope="module")
def browser():
    missing = [path for path in chromium_paths() if not os.path.exists(path)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium (pip)")
    if missing:
        reason = "the explorer's browser test needs " + ", ".join(missing) + " (scripts/bootstrap installs them)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must run it")
        pytest.skip(reason)
    binary, driver_path = chromium_paths()
    options = Options()
    options.binary_location = binary
    # --no-sandbox: CI runs as root. The rest keep chromium off the network and its start short.
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1600", "--disable-gpu",
                "--disable-extensions", "--no-first-run", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--disable-default-apps"):
        options.add_argument(arg)
    # Selenium Manager is never asked for a driver: the Debian one is named, so nothing is downloaded.
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    os.makedirs(SHOTS, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def chain():
    node = Node("--token", f"{EVIL_ADDRESS}:{EVIL_SYMBOL}:6:openzeppelin5:{EVIL_NAME}")
    yield node
    node.stop()


def rpc(node, method, params=None):
    body = httpx.post(node.url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params or []}, timeout=30)
    answer = body.json()
    assert "error" not in answer, answer
    return answer["result"]


def wait_for(driver, css):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def wait_until(driver, condition, message):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda d: condition(d), message)


def go(driver, node, route, ready):
    """Opens a route of the page (a fresh load when the page is not open yet) and waits for its `ready` element."""
    if not driver.current_url.startswith(node.url + "/explorer"):
        driver.get(node.url + "/explorer#/" + route)
    else:
        driver.execute_script("location.hash = arguments[0]", "#/" + route)
    wait_until(driver, lambda d: d.find_element("id", "main").get_attribute("data-route") == (route or "home"),
               f"route {route!r} rendered")
    return wait_for(driver, ready)


def shot(driver, name):
    driver.save_screenshot(os.path.join(SHOTS, name + ".png"))


def click(driver, element):
    driver.execute_script("arguments[0].scrollIntoView()", element)
    element.click()


def test_explorer_in_a_real_browser(browser, chain):
    from selenium.webdriver.common.by import By

    d = browser
    assert chain.info["explorerUrl"] == chain.url + "/explorer"
    served = httpx.get(chain.url + "/explorer")
    assert served.status_code == 200 and "script-src 'self'" in served.headers["content-security-policy"]

    # Home: latest blocks, live over the WebSocket.
    go(d, chain, "", "#latest-blocks")
    wait_until(d, lambda d: d.find_element("id", "live").text == "live", "the WebSocket subscription is live")
    head = int(rpc(chain, "eth_blockNumber"), 16)
    rpc(chain, "evm_mine")
    wait_for(d, f'#latest-blocks tr[data-number="{head + 1}"]')
    assert d.find_element("id", "head").text == f"block {head + 1}"
    shot(d, "home")

    # Faucet: a claim from the page; the transaction appears and the links lead block -> transaction -> address.
    someone = "0x" + secrets.token_hex(20)
    go(d, chain, "faucet", "#faucet-form")
    d.find_element("id", "faucet-address").send_keys(someone)
    click(d, d.find_element(By.CSS_SELECTOR, "#faucet-form button"))
    tx_link = wait_for(d, "#faucet-tx")
    tx_hash = tx_link.text
    receipt = rpc(chain, "eth_getTransactionReceipt", [tx_hash])
    shot(d, "faucet")
    click(d, tx_link)
    wait_until(d, lambda d: d.find_element("id", "main").get_attribute("data-route") == "tx/" + tx_hash, "tx page")
    wait_for(d, "#tx .status-success")
    shot(d, "transaction")
    click(d, d.find_element(By.CSS_SELECTOR, f'#tx a[href="#/block/{int(receipt["blockNumber"], 16)}"]'))
    block_row = wait_for(d, f'#block-txs a[href="#/tx/{tx_hash}"]')
    shot(d, "block")
    click(d, block_row)
    to_link = wait_for(d, f'#tx a[href="#/address/{someone}"]')
    click(d, to_link)
    balance = wait_for(d, "#balance")
    payout = httpx.get(chain.url + "/api/info").json()["payout"]
    assert balance.text == payout + " ETH"
    # Its history: the node's Etherscan-compatible API when it has one, else the latest blocks scanned.
    wait_for(d, f'#history tr[data-hash="{tx_hash}"]')
    shot(d, "address")

    # A token claim: the decoded call and the Transfer log show the token's symbol, markup and all, as text.
    evil_tx = httpx.post(chain.url + "/api/claim", json={"address": someone, "token": EVIL_SYMBOL}).json()["msg"]
    evil_hash = evil_tx.split()[-1]
    go(d, chain, "tx/" + evil_hash, "#logs")
    call = d.find_element("id", "call")
    assert call.text.startswith("transfer to = ") and call.text.endswith(" " + EVIL_SYMBOL), call.text
    assert call.find_elements(By.TAG_NAME, "b") == []
    log_row = d.find_element(By.CSS_SELECTOR, "#logs tbody tr")
    assert "Transfer" in log_row.text and EVIL_SYMBOL in log_row.text

    # Tokens: the name holding an <img onerror=…> is text; nothing ran.
    go(d, chain, "tokens", "#tokens")
    row = d.find_element(By.CSS_SELECTOR, f'#tokens tr[data-address="{EVIL_ADDRESS}"]')
    assert row.find_element(By.CSS_SELECTOR, "td.name").text == EVIL_NAME
    assert row.find_element(By.CSS_SELECTOR, "td.symbol").text == EVIL_SYMBOL
    assert d.find_elements(By.CSS_SELECTOR, "#main img, #main b") == []
    assert d.title == "Sandnet explorer"
    shot(d, "tokens")

    # Pool: a transaction with a nonce gap waits in the queue.
    from eth_account import Account
    from eth_utils import to_checksum_address

    key = chain.info["accounts"][1]["privateKey"]
    sender = Account.from_key(key)
    nonce = int(rpc(chain, "eth_getTransactionCount", [sender.address, "latest"]), 16) + 3
    signed = Account.sign_transaction({
        "to": to_checksum_address(someone), "value": 1, "gas": 21000, "maxFeePerGas": 10**11, "maxPriorityFeePerGas": 10**9,
        "nonce": nonce, "chainId": int(rpc(chain, "eth_chainId"), 16), "type": 2}, key)
    queued_hash = rpc(chain, "eth_sendRawTransaction", ["0x" + signed.raw_transaction.hex().removeprefix("0x")])
    go(d, chain, "pool", f'#queued tr[data-hash="{queued_hash}"]')
    shot(d, "pool")

    # Charts: the numbers drawn are the chain's (eth_feeHistory and the blocks' transaction counts).
    go(d, chain, "charts", "#chart-txcount")
    history = rpc(chain, "eth_feeHistory", ["0x20", "latest", [25, 50, 75]])
    oldest, count = int(history["oldestBlock"], 16), len(history["gasUsedRatio"])
    counts = [len(rpc(chain, "eth_getBlockByNumber", [hex(oldest + i), False])["transactions"]) for i in range(count)]
    drawn = json.loads(d.find_element("id", "chart-txcount").get_attribute("data-values"))
    assert drawn == counts and sum(counts) >= 2
    base_fees = json.loads(d.find_element("id", "chart-basefee").get_attribute("data-values"))
    assert base_fees == [int(v, 16) / 1e9 for v in history["baseFeePerGas"][:count]]
    points = d.find_element(By.CSS_SELECTOR, "#chart-basefee polyline").get_attribute("points").split()
    assert len(points) == count
    assert len(d.find_elements(By.CSS_SELECTOR, "#chart-gasratio rect.bar")) == count
    assert d.find_element("id", "fee-profile").text == "dev"
    shot(d, "charts")


def test_icp_ledger_blocks_show_a_memo_holding_markup_as_text(browser, chain):
    from ic.candid import encode
    from ic.identity import Identity
    from selenium.webdriver.common.by import By

    from test_icp_ledger import LEDGER, TransferArg, TransferResult, agent_for, claim

    alice, bob = Identity(), Identity()
    claim(chain, alice.sender().to_str())
    arg = encode([{"type": TransferArg, "value": {
        "from_subaccount": [], "to": {"owner": bob.sender().to_str(), "subaccount": []}, "amount": 12_345,
        "fee": [], "memo": [list(ICP_MEMO.encode())], "created_at_time": [],
    }}])
    result = agent_for(chain, alice).update_raw(LEDGER, "icrc1_transfer", arg, [TransferResult])[0]["value"]
    index = result["Ok"]
    d = browser
    go(d, chain, "icp", f'#icp-blocks tr[data-index="{index}"]')
    row = d.find_element(By.CSS_SELECTOR, f'#icp-blocks tr[data-index="{index}"]')
    assert row.find_element(By.CSS_SELECTOR, "td.memo").text == ICP_MEMO
    assert "Transfer" in row.text and "0.00012345 ICP" in row.text
    assert d.find_elements(By.CSS_SELECTOR, "#main i") == []
    bob_account = bob.sender().to_account_id().to_str().removeprefix("0x")
    assert d.find_elements(By.XPATH, f'//table[@id="icp-accounts"]//td[text()="{bob_account}"]')
    shot(d, "icp")


def test_the_faucet_page_shows_a_token_symbol_holding_markup_as_text(browser, chain):
    from selenium.webdriver.common.by import By

    browser.get(chain.url + "/faucet")
    option = wait_for(browser, f'#t option[value="{EVIL_SYMBOL}"]')
    assert option.get_attribute("textContent").endswith(" " + EVIL_SYMBOL)
    assert browser.find_elements(By.CSS_SELECTOR, "#t b, form b") == []
    shot(browser, "faucet-page")
