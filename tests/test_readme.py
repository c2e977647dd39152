"""The README matches the program: its sample outputs are what recon prints today (timings and
'...' aside), its quick-start commands run, and it stays under 16,000 characters."""

from __future__ import annotations

import re
import shlex

from conftest import ROOT
from test_classic import run

README = (ROOT / "README.md").read_text()


def sample_after(marker: str) -> list[str]:
    """The lines of the first plain ``` block after the marker."""
    rest = README[README.index(marker):]
    block = rest.split("\n```\n", 1)[1].split("\n```", 1)[0]
    return block.splitlines()


def pattern(line: str) -> re.Pattern:
    """A README line as a pattern: '...' stands for anything, a time 0.0082 s for any time."""
    parts = [re.escape(part) for part in line.split("...")]
    text = ".*".join(parts)
    text = re.sub(r"\d+\\\.\d+\\ s", r"[0-9.e-]+ s", text)
    return re.compile(text)


def test_the_solve_sample_is_what_solve_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run("solve", "data/seed-5x5.txt")
    got = err.splitlines()
    want = sample_after("**`recon solve FILE|-")
    assert code == 3 and len(got) == len(want)
    for line, sample in zip(got, want):
        assert pattern(sample).fullmatch(line), (sample, line)


def test_the_explain_sample_is_what_explain_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run("explain", "data/seed-3x3.txt")
    for sample in sample_after("**`recon explain FILE"):
        assert any(pattern(sample.strip()).fullmatch(line.strip()) for line in out.splitlines()), sample


def test_the_quick_start_commands_run(monkeypatch, tmp_path):
    """Each line of the first `sh` block under Commands, in a scratch directory with the data."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").symlink_to(ROOT / "data")
    block = README[README.index("## Commands"):].split("```sh\n", 1)[1].split("```", 1)[0]
    for line in block.splitlines():
        command = line.split("#")[0].strip()
        if not command or command.startswith("cat "):
            continue
        argv = shlex.split(command.split(">")[0])
        assert argv[0] == "recon"
        code, out, err = run(*argv[1:])
        assert code in (0, 3), (command, err)
        if ">" in command:
            (tmp_path / command.split(">")[1].strip()).write_text(out)


def test_the_readme_is_short():
    assert len(README) < 16_000
    assert len(README.encode("utf-8")) < 16_000  # as bytes too (×, →, ≡ take two or three)


def test_every_file_the_docs_and_the_code_point_to_exists():
    """Markdown links in the README and docs/, and the "docs/....md" the code's comments name,
    lead somewhere: the log moving out of performance.md into decisions.md must not leave
    pointers behind."""
    missing = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if not target.startswith(("http://", "https://")) and not (page.parent / target).exists():
                missing.append(f"{page.name} -> {target}")
    for source in sorted([*(ROOT / "recon").rglob("*.py"), *(ROOT / "tests").glob("*.py"), *(ROOT / "bench").glob("*.py")]):
        for target in set(re.findall(r"\bdocs/[\w-]+\.md", source.read_text())):
            if not (ROOT / target).exists():
                missing.append(f"{source.relative_to(ROOT)} -> {target}")
    assert not missing
