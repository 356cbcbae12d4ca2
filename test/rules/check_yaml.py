#!/usr/bin/python3
"""rules.yaml_wellformed: structure of rules/cuda2hip/*.yaml.

Checks that every table parses (with LLVM's YAML parser when yaml-bench is
available, as the translator's loader uses LLVM YAML I/O), has rule (declared once)
and entries, uses only the documented entry fields, has no CUDA name twice
across all tables, keeps HIP->CUDA unambiguous (a hip name appears in at
most one entry usable in reverse), and that each rule ID (and PK1010 when an
entry is unsupported) has docs/rules/<ID>.md with a '# <ID>: ' title line.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--yaml-bench', default='')
    a = ap.parse_args()
    rules_dir = os.path.join(a.source_dir, 'rules')
    docs_dir = os.path.join(a.source_dir, 'docs', 'rules')
    errors = []
    err = errors.append
    files = rc.table_files(rules_dir)
    if not files:
        err('no tables under ' + os.path.join(rules_dir, 'cuda2hip'))
    seen_cuda = {}
    table_of = {}
    reverse_hip = {}
    rule_ids = set()
    any_unsupported = False
    for path in files:
        name = os.path.relpath(path, a.source_dir)
        if a.yaml_bench:
            r = rc.run([a.yaml_bench, '-canonical', path])
            if r.returncode != 0 or 'error' in r.stderr:
                err(f'{name}: LLVM YAML parser rejects the file:\n{r.stderr.strip()}')
                continue
        try:
            doc = rc.load_yaml(path)
        except Exception as e:  # noqa: BLE001
            err(f'{name}: does not parse: {e}')
            continue
        if not isinstance(doc, dict):
            err(f'{name}: top level is not a mapping')
            continue
        for k in doc:
            if k not in rc.TOP_KEYS:
                err(f'{name}: unknown top-level key {k!r}')
        rule = doc.get('rule')
        if not isinstance(rule, str) or not re.fullmatch(r'PK\d{4}', rule):
            err(f'{name}: rule must be PKnnnn, got {rule!r}')
        else:
            rule_ids.add(rule)
        if 'title' in doc:
            err(f'{name}: built-in tables take their title from the rule table '
                '(lib/Core/include/pk/RuleTable.def), not from the YAML file')
        if isinstance(rule, str):
            if rule in table_of:
                err(f'{name}: rule {rule} is also declared by {table_of[rule]}; '
                    'each rule ID has one table')
            table_of[rule] = name
        header = rc.is_header_table(doc)
        if 'kind' in doc and not header:
            err(f"{name}: top-level kind must be 'header'")
        entries = doc.get('entries')
        if not isinstance(entries, list) or not entries:
            err(f'{name}: entries must be a non-empty list')
            continue
        text = open(path, encoding='utf-8').read()
        uses_kind = any(isinstance(e, dict) and 'kind' in e for e in entries)
        if uses_kind and not re.search(r'^#.*\bkind:', text, flags=re.M):
            err(f'{name}: entries use kind but the header comment does not document it')
        for i, e in enumerate(entries):
            where = f'{name}: entry {i + 1}'
            if not isinstance(e, dict):
                err(f'{where}: not a mapping')
                continue
            for k in e:
                if k not in rc.ENTRY_KEYS:
                    err(f'{where}: unknown field {k!r}')
            cuda = e.get('cuda')
            if not isinstance(cuda, str) or not cuda:
                err(f'{where}: missing cuda name')
                continue
            where = f'{name}: {cuda}'
            ident = r'[\w./+-]+' if header else r'[A-Za-z_]\w*'
            if not re.fullmatch(ident, cuda):
                err(f'{where}: cuda name is not a valid {"header" if header else "identifier"}')
            if cuda in seen_cuda:
                err(f'{where}: duplicate cuda name (also in {seen_cuda[cuda]})')
            seen_cuda[cuda] = name
            has_hip, has_uns = 'hip' in e, 'unsupported' in e
            if has_hip == has_uns:
                err(f'{where}: needs exactly one of hip and unsupported')
            if has_uns:
                any_unsupported = True
                if not isinstance(e['unsupported'], str) or not e['unsupported'].strip():
                    err(f'{where}: unsupported needs a reason')
            if has_hip:
                hip = e['hip']
                if not isinstance(hip, str):
                    err(f'{where}: hip must be a string')
                    continue
                if header:
                    if hip and not re.fullmatch(r'[\w./+-]+', hip):
                        err(f'{where}: hip header {hip!r} is not a header path')
                else:
                    if not re.fullmatch(r'[A-Za-z_]\w*', hip):
                        err(f'{where}: hip name {hip!r} is not an identifier')
                    if e.get('kind') not in rc.ENTRY_KINDS:
                        err(f'{where}: kind must be one of {", ".join(rc.ENTRY_KINDS)}')
                if 'reverse' in e and not isinstance(e['reverse'], bool):
                    err(f'{where}: reverse must be true or false')
                if e.get('reverse', True) and hip:
                    key = (header, hip)
                    if key in reverse_hip:
                        err(f'{where}: {hip} is also the reverse target of {reverse_hip[key]}; '
                            'mark all but one with reverse: false')
                    reverse_hip[key] = cuda
            elif 'kind' in e and e['kind'] not in rc.ENTRY_KINDS:
                err(f'{where}: kind must be one of {", ".join(rc.ENTRY_KINDS)}')
            if 'note' in e and (not isinstance(e['note'], str) or not e['note'].strip()):
                err(f'{where}: note must be non-empty text')
    if any_unsupported:
        rule_ids.add('PK1010')
    for rid in sorted(rule_ids):
        doc = os.path.join(docs_dir, rid + '.md')
        if not os.path.exists(doc):
            err(f'rule {rid}: missing {os.path.relpath(doc, a.source_dir)}')
            continue
        first = open(doc, encoding='utf-8').readline()
        if not first.startswith(f'# {rid}: '):
            err(f'{os.path.relpath(doc, a.source_dir)}: first line must be "# {rid}: <title>"')
    for e in errors:
        print('error: ' + e)
    print(f'{len(files)} tables, {len(seen_cuda)} entries, rules {", ".join(sorted(rule_ids))}: '
          + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
