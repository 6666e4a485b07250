"""What the browser tests share: where Debian's Chromium is, and the browser
contexts the running test opened (closed by the ``close_contexts`` fixture
in tests/conftest.py when the test ends)."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("KRONIEK_CHROMIUM", "/usr/bin/chromium")

#: The browser contexts the running test opened (tests/test_web.py's ``context``).
OPEN_CONTEXTS: list = []
