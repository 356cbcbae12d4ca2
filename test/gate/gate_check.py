#!/usr/bin/env python3
"""Checks of check reports for test/gate/gate_test.sh.

  sarif FILE RULETABLE      FILE is SARIF 2.1.0 as code-scanning services read
                            it (the schema's required structure, plus what
                            port-kernel promises: every rule of the table,
                            relative locations, fingerprints)
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


def check_sarif(path, table):
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
    for k in ('version', 'informationUri'):
        if not isinstance(drv.get(k), str) or not drv[k]:
            fail('tool.driver.%s missing' % k)
    if not re.match(r'^https?://', drv['informationUri']):
        fail('informationUri is not an absolute URI')
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
        check_sarif(sys.argv[2], sys.argv[3])
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
