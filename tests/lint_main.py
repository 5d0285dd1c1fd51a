"""The command line the source-tree lints share (tests/*_lint.py): --self-test, or SOURCE_DIR checked."""
import sys


def lint_main(argv, usage, self_test, findings, failure, success):
    """--self-test runs self_test(); SOURCE_DIR prints failure and each of findings(SOURCE_DIR), exit 1, or else
    success; anything else prints usage and exits 1."""
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) != 1:
        sys.exit(usage)
    found = findings(argv[0])
    if found:
        print(failure)
        print("\n".join(found))
        sys.exit(1)
    print(success)
