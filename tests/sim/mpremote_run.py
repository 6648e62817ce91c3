"""The stock mpremote, run against a virtual board's port as a user would."""
import subprocess
import sys
from pathlib import Path

MPREMOTE = str(Path(sys.executable).parent / "mpremote")  # the venv running the tests


def mpremote(port, *args, timeout=30):
    """Run the stock mpremote against a port; -> stdout. Fails the test on an error."""
    proc = subprocess.run([MPREMOTE, "connect", str(port), *args], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "mpremote %s failed: %s%s" % (" ".join(args), proc.stdout, proc.stderr)
    return proc.stdout
