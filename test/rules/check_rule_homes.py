#!/usr/bin/env python3
"""Every rule can be found in three steps: its doc page names its code and its
test, and each source file names the rules it implements.

Checks, for every PK_RULE row of lib/Core/include/pk/RuleTable.def:
  - docs/rules/<ID>.md starts with "# <ID>: <title>" (the table's title), and
    has a line "**Code:** `path`, ..." and a line "**Test:** `path`";
  - each Code path exists and names <ID> in its "Rules:" header line (source
    files) or its "rule:" key (YAML rename tables);
  - the Test path is test/rules/lit/<ID>.<ext> and exists;
  - some file under lib/ (or rules/) names <ID>.
No "PKnnnn" string literal appears in lib/ or tools/ outside the table.
And every .cpp/.h under lib/ (bundled CUDA declarations and emulator shims
aside) has a "// Rules:" line among its first lines, naming only known IDs.
Exit status 1 with one line per problem.
"""
import argparse
import os
import re
import sys

EXEMPT_DIRS = ('lib/Frontend/cuda-decls', 'lib/Frontend/cuda13-shim', 'lib/Emu/shim',
               'lib/Validate/runtime')
RULES_LINE = re.compile(r'^\s*(?://|#)\s*Rules:\s*(.*)$')
ID = re.compile(r'PK\d{4}')


def table(src):
    text = open(os.path.join(src, 'lib/Core/include/pk/RuleTable.def'), encoding='utf-8').read()
    rows = re.findall(r'PK_RULE\((PK\d{4}),\s*(\w+),\s*"([^"]*)",\s*"((?:[^"\\]|\\.)*)"\)', text)
    return {r[0]: {'kind': r[1], 'targets': r[2], 'title': r[3].replace('\\"', '"')} for r in rows}


CONTINUATION = re.compile(r'^\s*(?://|#)\s*((?:PK\d{4}\s*,?\s*)+)$')


def rules_header(path):
    """The IDs of the "Rules:" line, and of the comment lines that continue it
    (clang-format wraps a long list: lines holding nothing but IDs)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = [line for _, line in zip(range(16), f)]
    for i, line in enumerate(lines[:12]):
        m = RULES_LINE.match(line)
        if m:
            ids = set(ID.findall(m.group(1)))
            for more in lines[i + 1:]:
                c = CONTINUATION.match(more)
                if not c:
                    break
                ids |= set(ID.findall(c.group(1)))
            return ids, True
    return set(), False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    a = ap.parse_args()
    src = a.source_dir
    errors = []
    rules = table(src)
    if not rules:
        errors.append('RuleTable.def: no PK_RULE rows found')

    implemented = {}  # ID -> files
    for root, dirs, files in os.walk(os.path.join(src, 'lib')):
        rel_root = os.path.relpath(root, src)
        if rel_root.startswith(EXEMPT_DIRS):
            continue
        for fn in sorted(files):
            if not fn.endswith(('.cpp', '.h')):
                continue
            rel = os.path.join(rel_root, fn)
            ids, has = rules_header(os.path.join(src, rel))
            if not has:
                errors.append(f'{rel}: no "// Rules:" line among its first lines')
            for i in ids:
                if i not in rules:
                    errors.append(f'{rel}: names {i}, which is not in RuleTable.def')
                implemented.setdefault(i, []).append(rel)
    for fn in sorted(os.listdir(os.path.join(src, 'rules/cuda2hip'))):
        if fn.endswith('.yaml'):
            rel = os.path.join('rules/cuda2hip', fn)
            m = re.search(r'^rule:\s*(PK\d{4})', open(os.path.join(src, rel), encoding='utf-8').read(), re.M)
            if m:
                implemented.setdefault(m.group(1), []).append(rel)

    # Code names rules by RuleId::PKnnnn: no "PKnnnn" string literal (or one
    # built with a format) outside the rule table.
    literal = re.compile(r'"PK\d{4}|"PK\d{0,3}\{')
    for sub in ('lib', 'tools'):
        for root, dirs, files in os.walk(os.path.join(src, sub)):
            rel_root = os.path.relpath(root, src)
            if rel_root.startswith(EXEMPT_DIRS):
                continue
            for fn in sorted(files):
                if not fn.endswith(('.cpp', '.h', '.inc')):
                    continue
                rel = os.path.join(rel_root, fn)
                for n, line in enumerate(open(os.path.join(src, rel), encoding='utf-8', errors='replace'), 1):
                    if literal.search(line):
                        errors.append(f'{rel}:{n}: rule ID as a string literal; use RuleId::PKnnnn')

    for rid, row in sorted(rules.items()):
        if rid not in implemented:
            errors.append(f'{rid}: no file under lib/ or rules/ names it')
        doc = os.path.join('docs/rules', rid + '.md')
        if not os.path.exists(os.path.join(src, doc)):
            errors.append(f'{rid}: missing {doc}')
            continue
        text = open(os.path.join(src, doc), encoding='utf-8').read()
        first = text.split('\n', 1)[0]
        if first != f'# {rid}: {row["title"]}':
            errors.append(f'{doc}: heading {first!r} differs from the table: "# {rid}: {row["title"]}"')
        code = re.search(r'^\*\*Code:\*\*(.*)$', text, re.M)
        test = re.search(r'^\*\*Test:\*\*(.*)$', text, re.M)
        if not code:
            errors.append(f'{doc}: no "**Code:**" line')
        else:
            paths = re.findall(r'`([^`]+)`', code.group(1))
            if not paths:
                errors.append(f'{doc}: the Code line names no file')
            for p in paths:
                full = os.path.join(src, p)
                if not os.path.isfile(full):
                    errors.append(f'{doc}: Code names {p}, which does not exist')
                elif p not in implemented.get(rid, []):
                    errors.append(f'{doc}: Code names {p}, whose Rules line does not name {rid}')
        if not test:
            errors.append(f'{doc}: no "**Test:**" line')
        else:
            paths = re.findall(r'`([^`]+)`', test.group(1))
            if not paths or not any(re.fullmatch(rf'test/rules/lit/{rid}\.\w+', p) for p in paths):
                errors.append(f'{doc}: the Test line does not name test/rules/lit/{rid}.<ext>')
            for p in paths:
                if not os.path.isfile(os.path.join(src, p)):
                    errors.append(f'{doc}: Test names {p}, which does not exist')
    for e in errors:
        print('error: ' + e)
    print(f'{len(rules)} rules: ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
