# Runs on MicroPython: import one tests/rules module and call each of its test_* functions.
# Usage: micropython mp_runner.py MODULE   (MICROPYPATH must hold firmware/ and tests/rules/)
# Prints "PASS name" or "FAIL name" plus the traceback for each test, then "DONE".
import sys


def main(module_name):
    module = __import__(module_name)
    for name in sorted(dir(module)):
        test = getattr(module, name)
        if not name.startswith("test_") or not callable(test):
            continue
        try:
            test()
        except Exception as exc:  # report every failure, keep running the others
            print("FAIL", name)
            sys.print_exception(exc, sys.stdout)
        else:
            print("PASS", name)
    print("DONE")


main(sys.argv[1])
