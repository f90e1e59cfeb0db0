"""Serve a store: the HTTP API and its pages (``errdex serve``), and the MCP server (``errdex mcp``)."""
