import pytest_lsp
from lsp_helpers import CONFIG
from pytest_lsp import LanguageClient


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    # Each test initializes with the capabilities/folders/options it needs.
    yield
    try:
        await lsp_client.shutdown_session()
    except Exception:
        pass
