"""web3.py's module-testing suite over WebSocket with web3.py's default WebSocketProvider (binary frames), as web3.py
runs it against geth in tests/integration/go_ethereum/test_goethereum_ws/test_async_await_w3.py. Fixtures and skip
lists: web3_suite.py."""
import pytest
import pytest_asyncio

from web3 import AsyncWeb3, Web3, WebSocketProvider
from web3._utils.module_testing import AsyncEthModuleTest, AsyncNetModuleTest
from web3._utils.module_testing.web3_module import AsyncWeb3ModuleTest

from web3_suite import *  # noqa: F401,F403 (the fixtures)


@pytest.fixture
def w3(suite_node):
    """The sync tests AsyncWeb3ModuleTest inherits (solidity_keccak, is_connected) run over HTTP to the same node, as
    web3.py's WebSocket run takes its root conftest's `w3`."""
    return Web3(Web3.HTTPProvider(suite_node.url, request_kwargs={"timeout": 60}))


@pytest_asyncio.fixture
async def async_w3(suite_node):
    _w3 = await AsyncWeb3(WebSocketProvider(suite_node.ws_url, request_timeout=60))
    yield _w3
    await _w3.provider.disconnect()


class TestAsyncWeb3Module(AsyncWeb3ModuleTest):
    def _check_web3_client_version(self, client_version):
        assert client_version.startswith("Sandnet/")


class TestAsyncEthModule(AsyncEthModuleTest):
    pass


class TestAsyncNetModule(AsyncNetModuleTest):
    pass
