"""Headless Chromium for browser tests (Playwright for Python, the system's /usr/bin/chromium).

What this is: `async with chromium() as browser:` gives a Playwright `Browser` launched from
/usr/bin/chromium (Playwright cannot download its own here) with the flags a sandboxed CI needs.
Without Chromium or Playwright the test is skipped, except under `CI=true`, where that is a
failure: CI (.ci/run) installs both, so a missing one is a broken CI, not a reason to skip.

What this is not: a browser pool; each call starts one browser and closes it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip


def _missing(why: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {why}", pytrace=False)
    pytest.skip(why)


def chromium_path() -> Path:
    """The Chromium to launch (skips, or fails under CI=true, when there is none)."""
    if not CHROMIUM.exists() and shutil.which(str(CHROMIUM)) is None:
        _missing(f"no Chromium at {CHROMIUM}")
    return CHROMIUM


@contextlib.asynccontextmanager
async def chromium(**launch: Any) -> AsyncIterator[Any]:
    """A headless Chromium (a Playwright Browser), closed on exit."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(path), args=ARGS, headless=True, **launch)
        try:
            yield browser
        finally:
            await browser.close()
