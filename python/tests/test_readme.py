"""README.md's Python example runs as written (from a folder holding the repository's games/)."""

import os
import re

from conftest import GAMES, ROOT


def test_the_readme_example_runs(tmp_path, capsys):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    (tmp_path / "games").symlink_to(GAMES)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(blocks[0], "README.md (Python example)", "exec"), {})
    finally:
        os.chdir(old)
    out = capsys.readouterr().out
    assert out.startswith("22 ['a2-a3', 'a2-b3', 'b2-b3']")
    assert "first-move" in out
    runs = list((tmp_path / "results").iterdir())
    assert len(runs) == 1 and (runs[0] / "standings.csv").exists()
