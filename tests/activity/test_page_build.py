"""The Activity's page (activity/web, built into activity/static): what is committed is what the
sources build, the page's own tests pass, and its HTML keeps to the CSP of ../shared/activity.md.

The build and the page's tests need Node and `npm ci --prefix activity/web`; without them those
tests are skipped, except under `CI=true`, where .ci/run installs both, so a missing one fails.
The HTML checks need nothing but the committed files.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "activity" / "web"
STATIC = ROOT / "activity" / "static"
FIRST_LOAD_GZIP_LIMIT = 300 * 1024


def _npm() -> str:
    npm, node = shutil.which("npm"), shutil.which("node")
    why = None
    if npm is None or node is None:
        why = "no Node/npm on PATH"
    elif not (WEB / "node_modules").is_dir():
        why = "activity/web/node_modules is missing (npm ci --prefix activity/web)"
    if why is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {why}", pytrace=False)
        pytest.skip(why)
    assert npm is not None
    return npm


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline_script = False
        self.style_tag = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "style":
            self.style_tag = True

    def handle_data(self, data: str) -> None:
        if self.tags and self.tags[-1][0] == "script" and data.strip():
            self.inline_script = True


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _page() -> tuple[str, _Page]:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(html)
    return html, page


def test_index_html_keeps_the_csp_and_carries_the_client_id() -> None:
    html, page = _page()
    assert '<meta name="rummy-client-id" content="__RUMMY_CLIENT_ID__">' in html
    assert not page.style_tag, "an inline <style>"
    assert not page.inline_script, "an inline <script>"
    for tag, attrs in page.tags:
        assert "style" not in attrs, f"a style= attribute on <{tag}>"
        assert not any(k.startswith("on") for k in attrs), f"an inline handler on <{tag}>"
        if tag == "script":
            assert attrs.get("src"), "a <script> without src"
        for name in ("src", "href"):
            url = attrs.get(name)
            if url is None:
                continue
            assert not url.startswith(("data:", "http:", "https:", "//", "/")), f"{url}: not a relative URL of the page"


def test_assets_are_named_by_their_content_and_small() -> None:
    _, page = _page()
    used = [attrs.get("src") or attrs.get("href") for tag, attrs in page.tags if tag in ("script", "link")]
    assert len(used) >= 2
    first_load = len(gzip.compress((STATIC / "index.html").read_bytes()))
    for url in used:
        assert url is not None and url.startswith("assets/")
        body = (STATIC / url).read_bytes()
        stem = url.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        assert stem.rsplit("-", 1)[1] == hashlib.sha256(body).hexdigest()[:12], f"{url}: its name is not its hash"
        first_load += len(gzip.compress(body))
    assert first_load <= FIRST_LOAD_GZIP_LIMIT, f"first load {first_load} B compressed"
    # Nothing stale: every asset is one the page uses.
    assert sorted(p.name for p in (STATIC / "assets").iterdir()) == sorted(u.rsplit("/", 1)[1] for u in used if u)


@pytest.mark.xdist_group("activity-web")
def test_committed_build_is_what_the_sources_build(tmp_path: Path) -> None:
    npm = _npm()
    out = tmp_path / "static"
    subprocess.run([npm, "run", "--silent", "build", "--", "--out", str(out), "--quiet"], cwd=WEB, check=True,
                   timeout=300, capture_output=True)  # fmt: skip
    built, committed = _files(out), _files(STATIC)
    rebuild = "run `npm run build` in activity/web and commit activity/static"
    assert sorted(built) == sorted(committed), rebuild
    for name, body in built.items():
        assert body == committed[name], f"{name} differs: {rebuild}"


@pytest.mark.xdist_group("activity-web")
def test_page_unit_tests_pass() -> None:
    npm = _npm()
    run = subprocess.run([npm, "test"], cwd=WEB, timeout=300, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
