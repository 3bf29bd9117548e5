"""Serving a store to MCP hosts (system-design.txt section 7; ADR 003).

``mcp_server`` speaks MCP through the official SDK over stdio or streamable HTTP, with the pull
discipline and the index as the server's instructions (``mcp_instructions``); ``listen`` binds
the HTTP socket before anything is announced and knows which Host names a wildcard bind answers
to; ``fetch`` brings a published store (a URL or a release asset) to a local file, checked
against its sha256, before it is served. The stable library name is ``contextpull.server``.

Only ``mcp_server`` needs the ``mcp`` extra; nothing here is loaded by the reader core.
"""
