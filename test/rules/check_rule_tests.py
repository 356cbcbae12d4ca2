#!/usr/bin/python3
"""rules.every_rule_has_a_test: one focused lit test per rule ID.

Every ID declared in lib/Core/include/pk/RuleTable.def (the PK_RULE rows)
must have exactly one test file test/rules/lit/<ID>.<ext>, that file must
have RUN lines, and its check lines (the FileCheck directives of the
prefixes its RUN lines use, CHECK by default) must mention the ID itself
in a positive directive (not only in a -NOT line), i.e. the test asserts
the rule's own diagnostic or report entry.  A lit test named after an ID
that the table does not declare is an error too.  Auxiliary inputs live
under test/rules/lit/Inputs/ and are not tests.

Exit status 0 when all hold; 1 with one line per problem otherwise.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

RULE_ROW = re.compile(r'^\s*PK_RULE\(\s*(PK\d{4})\s*,', re.M)
TEST_NAME = re.compile(r'^(PK\d{4})\.([A-Za-z0-9_.]+)$')
RUN_LINE = re.compile(r'\bRUN:')
PREFIX_OPT = re.compile(r'-?-check-prefix(?:es)?(?:=|\s+)([A-Za-z0-9_,-]+)')
SUFFIXES = ('NEXT', 'SAME', 'NOT', 'DAG', 'LABEL', 'EMPTY')


def table_ids(def_path):
    with open(def_path, encoding='utf-8') as f:
        text = f.read()
    # Drop comments so that an example row in a comment is not counted.
    text = re.sub(r'//[^\n]*', '', text)
    return RULE_ROW.findall(text)


def run_lines(text):
    """The RUN lines of a test, joined where they continue with '\\'."""
    cmds, cur = [], ''
    for line in text.splitlines():
        m = RUN_LINE.search(line)
        if not m:
            continue
        part = line[m.end():].strip()
        if part.endswith('\\'):
            cur += part[:-1] + ' '
            continue
        cmds.append(cur + part)
        cur = ''
    if cur:
        cmds.append(cur)
    return cmds


def check_prefixes(cmds):
    prefixes = set()
    for cmd in cmds:
        for stage in cmd.split('|'):
            if 'FileCheck' not in stage:
                continue
            found = PREFIX_OPT.findall(stage)
            if not found:
                prefixes.add('CHECK')
            for group in found:
                prefixes.update(p for p in group.split(',') if p)
    return prefixes


def positive_check_lines(text, prefixes):
    """Lines holding a FileCheck directive of one of the prefixes, except
    -NOT directives (they assert that something does not happen)."""
    if not prefixes:
        return []
    alt = '|'.join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    directive = re.compile(r'(?<![A-Za-z0-9_-])(%s)(-(?:%s)|-COUNT-\d+)?:' %
                           (alt, '|'.join(SUFFIXES)))
    lines = []
    for line in text.splitlines():
        m = directive.search(line)
        if m and m.group(2) != '-NOT':
            lines.append(line[m.end():])
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    a = ap.parse_args()
    def_path = os.path.join(a.source_dir, 'lib', 'Core', 'include', 'pk',
                            'RuleTable.def')
    lit_dir = os.path.join(a.source_dir, 'test', 'rules', 'lit')
    ids = table_ids(def_path)
    if not ids:
        print('no PK_RULE rows in ' + def_path)
        return 1

    tests = {}
    problems = []
    for name in sorted(os.listdir(lit_dir)):
        path = os.path.join(lit_dir, name)
        if not name.startswith('PK') or not os.path.isfile(path):
            continue
        m = TEST_NAME.match(name)
        if not m:
            problems.append('%s: not named <ID>.<ext>' % name)
            continue
        tests.setdefault(m.group(1), []).append(name)

    missing = [i for i in ids if i not in tests]
    for rule_id in ids:
        files = tests.get(rule_id, [])
        if len(files) > 1:
            problems.append('%s: %d tests (%s), expected one' %
                            (rule_id, len(files), ', '.join(files)))
        for name in files:
            with open(os.path.join(lit_dir, name), encoding='utf-8') as f:
                text = f.read()
            cmds = run_lines(text)
            if not cmds:
                problems.append('%s: no RUN lines' % name)
                continue
            prefixes = check_prefixes(cmds)
            if not prefixes:
                problems.append('%s: no RUN line runs FileCheck' % name)
                continue
            # The ID as such, not the test's own file name (PK2001.cu:12:...).
            mention = re.compile(r'(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_]|\.\w)' % rule_id)
            if not any(mention.search(l) for l in positive_check_lines(text, prefixes)):
                problems.append('%s: no check line (%s) mentions %s' %
                                (name, ', '.join(sorted(prefixes)), rule_id))
    known = set(ids)
    for rule_id in sorted(tests):
        if rule_id not in known:
            problems.append('%s: not an ID of RuleTable.def (%s)' %
                            (', '.join(tests[rule_id]), rule_id))

    for p in problems:
        print(p)
    if missing:
        print('rule IDs without a test under test/rules/lit (%d of %d): %s' %
              (len(missing), len(ids), ' '.join(missing)))
    if problems or missing:
        return 1
    print('%d rule IDs, one test each' % len(ids))
    return 0


if __name__ == '__main__':
    sys.exit(main())
