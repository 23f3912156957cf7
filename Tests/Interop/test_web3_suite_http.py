"""web3.py's module-testing suite over HTTP (Web3.HTTPProvider and AsyncHTTPProvider), as web3.py runs it against geth
in tests/integration/go_ethereum/test_goethereum_http.py. Fixtures and skip lists: web3_suite.py."""
import pytest
import pytest_asyncio

from web3 import AsyncWeb3, Web3
from web3._utils.module_testing import AsyncEthModuleTest, AsyncNetModuleTest, EthModuleTest, NetModuleTest
from web3._utils.module_testing.web3_module import AsyncWeb3ModuleTest, Web3ModuleTest
from web3.providers.rpc import AsyncHTTPProvider

from web3_suite import *  # noqa: F401,F403 (the fixtures)


@pytest.fixture
def w3(suite_node):
    return Web3(Web3.HTTPProvider(suite_node.url, request_kwargs={"timeout": 60}))


@pytest_asyncio.fixture
async def async_w3(suite_node):
    _w3 = AsyncWeb3(AsyncHTTPProvider(suite_node.url))
    yield _w3
    await _w3.provider.disconnect()


class SandnetClientVersion:
    def _check_web3_client_version(self, client_version):
        assert client_version.startswith("Sandnet/")


class TestWeb3Module(SandnetClientVersion, Web3ModuleTest):
    pass


class TestEthModule(EthModuleTest):
    pass


class TestNetModule(NetModuleTest):
    pass


class TestAsyncWeb3Module(SandnetClientVersion, AsyncWeb3ModuleTest):
    pass


class TestAsyncEthModule(AsyncEthModuleTest):
    pass


class TestAsyncNetModule(AsyncNetModuleTest):
    pass
