"""dllog language server (pygls 2.x). Entry point: :func:`lsp_server.server.main`."""
