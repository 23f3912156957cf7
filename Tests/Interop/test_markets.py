"""pycoingecko (PyPI), unchanged but for its base URL, against the node's CoinGecko routes (README, "Markets")."""
import pytest
from pycoingecko import CoinGeckoAPI


@pytest.fixture
def cg(node):
    api = CoinGeckoAPI()
    api.api_base_url = node.url.rstrip("/") + "/coingecko/api/v3/"
    return api


def test_ping_and_lists(cg):
    assert cg.ping() == {"gecko_says": "(V3) To the Moon!"}
    assert cg.get_supported_vs_currencies() == ["usd", "eur", "jpy"]
    ids = [c["id"] for c in cg.get_coins_list()]
    assert {"bitcoin", "ethereum", "internet-computer", "chainlink", "usd-coin", "tether"} == set(ids)


def test_prices_charts_and_ohlc_agree(cg):
    price = cg.get_price(ids=["bitcoin", "ethereum"], vs_currencies="usd,jpy", include_24hr_change=True,
                         include_last_updated_at=True)
    assert price["bitcoin"]["usd"] > 0 and price["ethereum"]["jpy"] > price["ethereum"]["usd"]
    assert "usd_24h_change" in price["bitcoin"] and price["bitcoin"]["last_updated_at"] > 1_700_000_000
    day = cg.get_coin_market_chart_by_id("bitcoin", vs_currency="usd", days=1)
    assert 288 <= len(day["prices"]) <= 290
    assert all(b[0] - a[0] == 300_000 for a, b in zip(day["prices"][:-2], day["prices"][1:-1]))
    year = cg.get_coin_market_chart_by_id("bitcoin", vs_currency="usd", days=365)
    assert all(t % 86_400_000 == 0 for t, _ in year["prices"][:-1])
    candles = cg.get_coin_ohlc_by_id("bitcoin", vs_currency="usd", days=1)
    points = dict((t, v) for t, v in day["prices"])
    for close_ms, o, h, l, c in candles:
        assert l <= o <= h and l <= c <= h
        if close_ms in points:
            assert points[close_ms] == c
    rng = cg.get_coin_market_chart_range_by_id("ethereum", vs_currency="eur", from_timestamp=day["prices"][0][0] // 1000,
                                              to_timestamp=day["prices"][-1][0] // 1000)
    assert len(rng["prices"]) > 200


def test_markets_and_coin(cg):
    rows = cg.get_coins_markets(vs_currency="usd", sparkline=True, price_change_percentage="1h,24h,7d")
    assert [r["market_cap_rank"] for r in rows] == list(range(1, 7))
    assert len(rows[0]["sparkline_in_7d"]["price"]) == 168
    assert "price_change_percentage_7d_in_currency" in rows[0]
    coin = cg.get_coin_by_id("chainlink")
    assert coin["market_data"]["current_price"]["usd"] > 0


def test_errors_raise_value_error_with_the_body(cg):
    with pytest.raises(ValueError, match="coin not found"):
        cg.get_coin_market_chart_by_id("no-such-coin", vs_currency="usd", days=1)
    with pytest.raises(ValueError, match="invalid days"):
        cg.get_coin_market_chart_by_id("bitcoin", vs_currency="usd", days=0)
    with pytest.raises(ValueError, match="invalid vs_currency"):
        cg.get_coin_ohlc_by_id("bitcoin", vs_currency="xyz", days=1)
