"""The screenshot script (``scripts/bot_screens.py``) runs: the real bot under the fake Discord.

What a maintainer would notice if this failed: the README's pictures of the bot in a server or in
a group DM can no longer be made again, because the bot changed under the script (issue 36: the
lobby moved to the channel and the script failed on it, unseen). Each mode's ``--smoke`` path is
run to a temporary folder: its lobby, its table and a hand; the full runs also draw a deal's end.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]  # a bot process: one at a time, as tests/e2e


@pytest.mark.parametrize(("flags", "pictures"), [
    ([], ["bot-lobby.png", "bot-table.png", "bot-hand.png"]),
    (["--group-dm"], ["bot-gdm-lobby.png", "bot-gdm-table.png", "bot-gdm-hand.png"]),
])
def test_each_screenshot_mode_posts_its_pictures(tmp_path: Path, flags: list[str], pictures: list[str]) -> None:
    done = subprocess.run([sys.executable, "scripts/bot_screens.py", "--smoke", "--out", str(tmp_path), *flags],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "violations: []" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(pictures)
    for name in pictures:
        with Image.open(tmp_path / name) as image:
            assert image.format == "PNG" and image.width >= 400 and image.height >= 100, name
