"""The repository stands on its own: no file in it points at something a clone does not have
(the product inputs the project started from, folders of the machine it was built on, a link
out of the tree), and no doc or comment cites the tracker's issue numbers: the docs say
things in their own words."""
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()

OUTSIDE = [
    (re.compile(r"\.\./shared\b|(?<![\w.])shared/(seeds|hooks)\b"), "a folder outside the repository"),
    (re.compile(r"\b(RULES|PROTOCOL|DESIGN)\.md\b"), "a product document that is not in the repository "
                                                   "(the project's own are docs/rules.md, docs/protocol.md, ...)"),
    (re.compile(r"(?<![\w.])/(work|home|root|Users)/\w"), "a folder of one machine"),
    (re.compile(r"\bissues? #?\d+|\bissue-\d+", re.IGNORECASE), "an issue number"),
]
# In prose, `#12` is an issue too (code has `#` for colours and keys, so only docs are checked).
DOC_ISSUE = re.compile(r"(?<![\w&#`\"'])#\d+\b")
MD_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+)\)")


def tracked_files():
    """Every file of the repository: git's list when this is a clone, else the tree on disk."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        return sorted(name for name in out.decode().split("\0") if name)
    except (OSError, subprocess.CalledProcessError):
        return sorted(files_on_disk())


def files_on_disk():
    for root, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in (".git", ".venv", "__pycache__", ".pytest_cache")]
        for name in files:
            yield Path(root, name).relative_to(ROOT).as_posix()


def text_of(name):
    path = ROOT / name
    if path.is_symlink() or not path.is_file():
        return None
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None  # binary: images, flash images
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def inside(path):
    try:
        Path(os.path.normpath(path)).relative_to(ROOT)
        return True
    except ValueError:
        return False


def test_no_tracked_file_points_outside_the_repository_or_cites_an_issue():
    found = []
    for name in tracked_files():
        if name == SELF:
            continue
        text = text_of(name)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, what in OUTSIDE:
                match = pattern.search(line)
                if match:
                    found.append("%s:%d: %r is %s" % (name, number, match.group(0), what))
            if name.endswith(".md"):
                match = DOC_ISSUE.search(line)
                if match:
                    found.append("%s:%d: %r is an issue number" % (name, number, match.group(0)))
                for target in MD_LINK.findall(line):
                    if not inside(ROOT / Path(name).parent / target.split("#")[0]):
                        found.append("%s:%d: the link %s leaves the repository" % (name, number, target))
    assert not found, "\n".join(found)


def test_symlinks_stay_inside_the_repository():
    links = [name for name in tracked_files() if (ROOT / name).is_symlink()]
    outside = [name for name in links if not inside((ROOT / name).parent / os.readlink(ROOT / name))]
    assert not outside, outside


@pytest.mark.parametrize("line, bad", [
    ("see ../shared/RULES.md", True), ("the rules: RULES.md section 2", True),
    ("fixed in issue 13", True), ("(Issue #4)", True), ("/work/shared/seeds/000.txt", True),
    ("the rules: docs/rules.md section 2", False), ("a shared helper module", False),
    ("colour #555 and key # = ok", False), ("/tmp/board", False),
])
def test_the_checks_tell_outside_references_from_ordinary_text(line, bad):
    assert any(pattern.search(line) for pattern, _ in OUTSIDE) == bad
