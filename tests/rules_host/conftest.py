# CPython-only rules tests reuse the dual-interpreter helpers of tests/rules (randplay, check).
import sys

from rules_mp import RULES_TESTS

if str(RULES_TESTS) not in sys.path:
    sys.path.insert(0, str(RULES_TESTS))
