"""Prints one plain summary line for a meson test run: `LABEL: N passed, M failed`.

GoogleTest's and the corpus replay's own counts are read from meson's
testlog.json, so CI sees how many C++ tests ran, not only how many binaries.
"""

import json
import re
import sys


def main(log_path, label):
    passed = failed = 0
    with open(log_path) as f:
        for line in f:
            entry = json.loads(line)
            out = entry.get("stdout", "")
            gtest_passed = re.search(r"\[  PASSED  \] (\d+) tests?", out)
            gtest_failed = re.search(r"\[  FAILED  \] (\d+) tests?, listed below", out)
            plain = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
            if gtest_passed or gtest_failed:
                passed += int(gtest_passed.group(1)) if gtest_passed else 0
                failed += int(gtest_failed.group(1)) if gtest_failed else 0
            elif plain:
                passed += int(plain.group(1))
                failed += int(plain.group(2))
            elif entry.get("result") != "OK":
                failed += 1
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
