"""The generated documentation matches the code it documents."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_options_page_is_generated_from_the_rule_sets():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_options.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_option_is_documented_with_its_default():
    from bot.engine.options import OPTION_SPECS, OptionSpec

    page = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    for specs in OPTION_SPECS.values():
        for spec in specs:
            assert f"`{spec.name}`" in page
            assert f"`{OptionSpec.write(spec.default)}`" in page
