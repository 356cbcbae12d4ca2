#!/usr/bin/env python3
"""Checks of check reports for test/gate/gate_test.sh.

  sarif FILE RULETABLE [URIBASE]
                            FILE is SARIF 2.1.0 as code-scanning services read
                            it (the schema's required structure, plus what
                            port-kernel promises: every rule of the table,
                            relative locations, fingerprints); without
                            URIBASE no helpUri or informationUri may appear,
                            with it every rule's helpUri is URIBASE/ID.md
  validation FILE RULE TARGET FILE LINE
                            the JSON report FILE has exactly one validation
                            finding (PK9220/PK9221): RULE, TARGET at FILE:LINE
  fingerprints A B          the JSON reports A and B have the same findings
                            (target, rule, file, fingerprint), lines and
                            messages (which may quote line numbers) aside
  same A B                  the JSON or SARIF reports A and B hold the same
                            findings, lines included
  disjoint_tus A B...       no .cu file has findings in two of the reports
"""
import json
import re
import sys


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return json.load(f)


def check_sarif(path, table, base=None):
    ids = re.findall(r'^PK_RULE\((PK\d{4}),', open(table).read(), re.M)
    log = load(path)
    if log.get('version') != '2.1.0':
        fail('version is not "2.1.0"')
    if 'sarif' not in log.get('$schema', ''):
        fail('no SARIF $schema')
    runs = log.get('runs')
    if not isinstance(runs, list) or len(runs) != 1:
        fail('runs is not a one-element array')
    run = runs[0]
    drv = run.get('tool', {}).get('driver')
    if not isinstance(drv, dict) or drv.get('name') != 'port-kernel':
        fail('runs[0].tool.driver.name is not port-kernel')
    if not isinstance(drv.get('version'), str) or not drv['version']:
        fail('tool.driver.version missing')
    if base is None:
        if 'informationUri' in drv:
            fail('informationUri written without --rules-uri-base: %r'
                 % drv['informationUri'])
    elif drv.get('informationUri') != base.rstrip('/') + '/README.md':
        fail('informationUri is not the catalogue under --rules-uri-base: %r'
             % drv.get('informationUri'))
    rules = drv.get('rules')
    if not isinstance(rules, list):
        fail('tool.driver.rules is not an array')
    by_id = {}
    for i, r in enumerate(rules):
        if not isinstance(r.get('id'), str):
            fail('rule %d has no id' % i)
        for k in ('shortDescription', 'fullDescription', 'help'):
            if not isinstance(r.get(k, {}).get('text'), str) or not r[k]['text']:
                fail('rule %s: %s.text missing' % (r['id'], k))
        if not r['help'].get('markdown', '').startswith('# ' + r['id']):
            fail('rule %s: help.markdown is not its documentation page' % r['id'])
        want = None if base is None else base.rstrip('/') + '/' + r['id'] + '.md'
        if r.get('helpUri') != want:
            fail('rule %s: helpUri %r, expected %r' % (r['id'], r.get('helpUri'), want))
        if r.get('defaultConfiguration', {}).get('level') not in (
                'none', 'note', 'warning', 'error'):
            fail('rule %s: bad defaultConfiguration.level' % r['id'])
        by_id[r['id']] = i
    missing = [i for i in ids if i not in by_id]
    if missing:
        fail('rules missing from tool.driver.rules: %s' % missing[:5])
    if run.get('originalUriBaseIds', {}).get('%SRCROOT%', {}).get(
            'uri', '').startswith('file:///') is not True:
        fail('originalUriBaseIds.%SRCROOT% is not a file:/// URI')
    results = run.get('results')
    if not isinstance(results, list) or not results:
        fail('no results')
    for n, res in enumerate(results):
        where = 'result %d' % n
        if not isinstance(res.get('message', {}).get('text'), str):
            fail(where + ': message.text missing')  # required by the schema
        rid = res.get('ruleId')
        if rid not in by_id:
            fail(where + ': ruleId %r is not in tool.driver.rules' % rid)
        if res.get('ruleIndex') != by_id[rid]:
            fail(where + ': ruleIndex does not point at its rule')
        if res.get('level') not in ('none', 'note', 'warning', 'error'):
            fail(where + ': bad level')
        locs = res.get('locations')
        if not isinstance(locs, list) or not locs:
            fail(where + ': no locations')
        pl = locs[0].get('physicalLocation', {})
        art = pl.get('artifactLocation', {})
        uri = art.get('uri', '')
        if not uri or uri.startswith('/') or uri.startswith('file:'):
            fail(where + ': uri %r is not relative' % uri)
        if art.get('uriBaseId') != '%SRCROOT%':
            fail(where + ': uriBaseId is not %SRCROOT%')
        reg = pl.get('region', {})
        if not isinstance(reg.get('startLine'), int) or reg['startLine'] < 1:
            fail(where + ': region.startLine missing')
        if not isinstance(reg.get('startColumn'), int) or reg['startColumn'] < 1:
            fail(where + ': region.startColumn missing')
        fp = res.get('partialFingerprints', {})
        if not fp or not all(isinstance(v, str) and v for v in fp.values()):
            fail(where + ': no partialFingerprints')
    print('PASS: %s: %d rules, %d results' % (path, len(rules), len(results)))


def findings(path, with_line=True):
    r = load(path)
    out = []
    if 'runs' in r:
        for run in r['runs']:
            for res in run['results']:
                pl = res['locations'][0]['physicalLocation']
                out.append((res['properties']['target'], res['ruleId'],
                            pl['artifactLocation']['uri'],
                            pl['region']['startLine'] if with_line else 0,
                            pl['region'].get('startColumn', 0) if with_line else 0,
                            res['message']['text'],
                            list(res['partialFingerprints'].values())[0]))
    else:
        for f in r['findings']:
            out.append((f['target'], f['rule'], f['file'],
                        f['line'] if with_line else 0,
                        f['col'] if with_line else 0, f['message'],
                        f['fingerprint']))
    return out


def main():
    cmd = sys.argv[1]
    if cmd == 'sarif':
        check_sarif(sys.argv[2], sys.argv[3],
                    sys.argv[4] if len(sys.argv) > 4 else None)
    elif cmd == 'validation':
        rule, target, file, line = sys.argv[3:7]
        v = [f for f in load(sys.argv[2])['findings']
             if f['rule'] in ('PK9220', 'PK9221')]
        got = [(f['rule'], f['target'], f['file'], str(f['line'])) for f in v]
        if got != [(rule, target, file, line)]:
            fail('validation findings %s, expected one %s' % (got, (rule, target, file, line)))
        if v[0]['severity'] != 'error' or 'largest error' not in v[0]['message']:
            fail('not an error with the largest error: %r' % v[0])
        print('PASS: one validation finding: %s' % v[0]['message'])
    elif cmd in ('fingerprints', 'same'):
        a = findings(sys.argv[2], cmd == 'same')
        b = findings(sys.argv[3], cmd == 'same')
        if cmd == 'fingerprints':
            a = [(f[0], f[1], f[2], f[6]) for f in a]
            b = [(f[0], f[1], f[2], f[6]) for f in b]
        if not a:
            fail('%s has no findings' % sys.argv[2])
        if sorted(a) != sorted(b):
            fail('%s and %s differ:\n  %s\n  %s' % (
                sys.argv[2], sys.argv[3], sorted(set(a) - set(b)),
                sorted(set(b) - set(a))))
        if len(set(b)) != len(b):
            fail('%s has duplicates' % sys.argv[3])
        print('PASS: %s and %s: the same %d findings' % (
            sys.argv[2], sys.argv[3], len(a)))
    elif cmd == 'disjoint_tus':
        owner = {}
        for p in sys.argv[2:]:
            for f in findings(p):
                if f[2].endswith('.cu') and owner.setdefault(f[2], p) != p:
                    fail('%s has findings in %s and %s' % (f[2], owner[f[2]], p))
        print('PASS: translation units are disjoint across %d shards' %
              len(sys.argv[2:]))
    else:
        fail('unknown command ' + cmd)


main()
