#!/usr/bin/env python3
"""Fails when a function in the product's C++ (every source and header under FOLDERS) is longer than 60 lines, or
a file longer than 600.

A function's length runs from the first line of its declaration to its closing brace. Functions are found
by brace matching on the source with comments, string and character literals and preprocessor lines blanked:
a brace block at namespace or class level whose declaration ends in a parameter list (and qualifiers, or a
constructor's initializer list) is a function body; namespaces, extern "C" blocks and class bodies are looked
into; initializers and enums are not functions. Lambdas inside a function count towards that function.
Usage: function_length_lint.py SOURCE_DIR [--allow FILE]   (exit 1 and one line per function over the limit)
       function_length_lint.py --self-test                 (plants functions in a scratch tree; exit 0 when
                                                            exactly the long ones are caught)
FILE lists functions allowed to be longer for now, one "PATH NAME" a line (# starts a comment), as the lint
names them, and files allowed to be longer as "PATH (file)"; an entry that names nothing over its limit is itself
a failure (the list only shrinks).
"""
import os
import re
import sys
import tempfile

LIMIT = 60
FILE_LIMIT = 600
WHOLE_FILE = "(file)"
FOLDERS = ("analysis", "api", "app", "bench", "cli", "include", "io", "kernels", "limits", "measure", "reports", "results",
           "support")
SOURCES = (".cpp", ".cu", ".hpp", ".cuh", ".h")


def blank_non_code(text):
    """The text with comments, literals' contents and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|[uUL])?R"([^()\\\s]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:end - 1]) + '"')
            i = end
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum())):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n and text[j] == c else ""))
            i = j + 1 if j < n and text[j] == c else j
            continue
        out.append(c)
        i += 1
    return "".join(out)


QUALIFIERS = r"(?:\s|const|noexcept(?:\s*\([^()]*\))?|override|final|mutable|&|&&|->[^{};=]*)*"
FUNCTION_END = re.compile(r"\)" + QUALIFIERS + r"$")
INIT_LIST = re.compile(r"\)" + QUALIFIERS + r":\s*[\w:]")
ACCESS = re.compile(r"^\s*(?:public|private|protected)\s*:(?!:)")


def classify(stmt):
    s = " ".join(stmt.split())
    if re.match(r"^(?:inline )?namespace\b", s) or re.match(r'^extern\s*"\s*"$', s):
        return "container"
    if re.match(r"^(?:template\s*<.*>\s*)?(?:class|struct|union)\b", s) and not s.endswith(")"):
        return "container"
    if re.match(r"^(?:template\s*<.*>\s*)?enum\b", s) or "(" not in s:
        return "other"
    if FUNCTION_END.search(s) or (INIT_LIST.search(s) and s.endswith("}")):  # not a member's braced initializer
        return "function"
    return "other"


def name_of(stmt):
    s = " ".join(stmt.split())
    lam = re.search(r"(\w+)\s*=\s*\[", s)
    head = s[:s.index("(")]
    m = re.search(r"((?:[\w~]+::)*(?:operator\s*\S+|~?\w+))\s*$", head)
    if m and not (lam and lam.start() < len(head)):
        return m.group(1).replace(" ", "")
    return lam.group(1) if lam else "<unnamed>"


def functions(text):
    """(name, first line, last line) of every function body at namespace or class level."""
    code = blank_non_code(text)
    found = []
    stmt, stmt_lines = [], []
    depth_stack = []  # one entry per open container
    line = 1
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "\n":
            line += 1
        if c == ";" or (c == "}" and depth_stack):
            if c == "}":
                depth_stack.pop()
            stmt, stmt_lines = [], []
            i += 1
            continue
        if c == "{":
            text_so_far = "".join(stmt)
            access = ACCESS.match(text_so_far)
            if access:  # "public:" opens no statement of its own
                cut = access.end()
                stmt, stmt_lines = stmt[cut:], stmt_lines[cut:]
                text_so_far = text_so_far[cut:]
            kind = classify(text_so_far)
            if kind == "container":
                depth_stack.append(True)
                stmt, stmt_lines = [], []
                i += 1
                continue
            depth, j, end_line = 0, i, line
            while j < n:
                if code[j] == "{":
                    depth += 1
                elif code[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                elif code[j] == "\n":
                    end_line += 1
                j += 1
            if kind == "function":
                starts = [ln for ch, ln in zip(stmt, stmt_lines) if not ch.isspace()]
                found.append((name_of(text_so_far), starts[0] if starts else line, end_line))
                stmt, stmt_lines = [], []
            else:
                stmt.append("{}")
                stmt_lines.append(line)
            line = end_line
            i = j + 1
            continue
        stmt.append(c)
        stmt_lines.append(line)
        i += 1
    return found


def product_files(root):
    """Every C++ and CUDA source and header of the product, in a stable order."""
    found = []
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            found += [os.path.join(dirpath, name) for name in files if name.endswith(SOURCES)]
    return sorted(found)


def too_long(root):
    """(relative path, name, first line, length) of each function over the limit."""
    out = []
    for path in product_files(root):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > FILE_LIMIT:
            out.append((rel, WHOLE_FILE, 1, lines))
        for name, first, last in functions(text):
            if last - first + 1 > LIMIT:
                out.append((rel, name, first, last - first + 1))
    return out


def read_allow(path):
    allowed = set()
    if not path:
        return allowed
    with open(path, encoding="utf-8") as f:
        for raw in f:
            entry = raw.split("#", 1)[0].split()
            if len(entry) == 2:
                allowed.add(tuple(entry))
    return allowed


def limit_of(name):
    return FILE_LIMIT if name == WHOLE_FILE else LIMIT


def lint(root, allow_path=None):
    allowed = read_allow(allow_path)
    problems, seen = [], set()
    for rel, name, first, length in too_long(root):
        seen.add((rel, name))
        if (rel, name) not in allowed:
            problems.append("%s:%d: %s is %d lines (at most %d)" % (rel, first, name, length, limit_of(name)))
    for rel, name in sorted(allowed - seen):
        problems.append("%s: %s is no longer over %d lines (or gone): remove it from %s" % (rel, name, limit_of(name), allow_path))
    return problems


def body(lines):
    return "".join("  x += %d;\n" % k for k in range(lines))


def self_test():
    planted = {
        # exactly at the limit, with braces that are not code: comments, strings, characters, a raw string
        "app/ok.cpp": "namespace a {\nnamespace {\n// {{{ not code\nint at_limit(int x) {\n" + body(LIMIT - 7)
        + '  const char* s = "}}}";\n  char c = \'{\';\n  auto r = R"x({{)x";\n  /* } */\n  return x;\n}\n}\n}\n',
        # a long initializer, a long enum and a long class whose members are short are no functions
        "app/data.cpp": "const int table[] = {\n" + "  1,\n" * 120 + "};\nenum class e {\n" + "  v,\n" * 100
        + "};\nstruct s {\n" + "  int f() const { return 1; }\n" * 100 + "};\n",
        "app/long.cpp": "namespace a {\nint one_too_many(int x) {\n" + body(LIMIT - 2) + "  return x;\n}\n}\n",
        # a member defined in its class, a constructor with a braced initializer list, extern "C"
        "measure/k.cu": "class k {\n public:\n  void member() const {\n" + body(LIMIT) + "  }\n};\n"
        + "k::k(int v)\n    : v_{v} {\n" + body(LIMIT) + "}\n"
        + 'extern "C" {\nvoid c_side() {\n' + body(LIMIT) + "}\n}\n",
        "measure/allowed.cpp": "void long_but_listed() {\n" + body(LIMIT) + "}\n",
        # every product folder, its subfolders and its headers: a command, a family, a kernel, an inline function
        "app/commands/c.cpp": "int command() {\n" + body(LIMIT) + "}\n",
        "bench/f.cpp": "void family() {\n" + body(LIMIT) + "}\n",
        "kernels/k.cuh": "__global__ void kernel() {\n" + body(LIMIT) + "}\n",
        "include/cudabench/h.hpp": "inline void in_header() {\n" + body(LIMIT) + "}\n",
        "tests/elsewhere.cpp": "void not_checked_here() {\n" + body(2 * LIMIT) + "}\n",
        # a file one line over its limit, one at it, and one listed, all of short functions
        "results/big.cpp": "int f() { return 1; }\n" * (FILE_LIMIT + 1),
        "results/full.cpp": "int f() { return 1; }\n" * FILE_LIMIT,
        "results/big_listed.cpp": "int f() { return 1; }\n" * (2 * FILE_LIMIT),
    }
    allow = ("# functions still over the limit\nmeasure/allowed.cpp long_but_listed\napp/ok.cpp at_limit  # stale\n"
             "results/big_listed.cpp (file)\n")
    want = {("app/long.cpp", "one_too_many"), ("measure/k.cu", "member"), ("measure/k.cu", "k::k"),
            ("measure/k.cu", "c_side"), ("app/commands/c.cpp", "command"), ("bench/f.cpp", "family"),
            ("kernels/k.cuh", "kernel"), ("include/cudabench/h.hpp", "in_header"), ("app/ok.cpp", "at_limit"),
            ("results/big.cpp", WHOLE_FILE)}
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        allow_path = os.path.join(root, "allow.txt")
        with open(allow_path, "w") as f:
            f.write(allow)
        found = lint(root, allow_path)
    caught = set()
    for p in found:
        m = re.match(r"([^:]+):(?:\d+:)? (\S+) is", p)
        caught.add((m.group(1), m.group(2)) if m else ("?", p))
    if caught != want or len(found) != len(want):
        print("self-test: caught %s, expected %s" % (sorted(found), sorted(want)))
        return 1
    print("self-test: all %d planted long functions and files (and the stale allow-list entry) caught, no false alarm"
          % (len(want) - 1))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--self-test"]:
        sys.exit(self_test())
    allow = None
    if len(args) == 3 and args[1] == "--allow":
        allow = args[2]
    elif len(args) != 1:
        print(__doc__)
        sys.exit(2)
    problems = lint(args[0], allow)
    for p in problems:
        print(p)
    print("%d function length problem(s)" % len(problems))
    sys.exit(1 if problems else 0)
