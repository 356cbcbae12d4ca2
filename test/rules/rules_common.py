"""Shared helpers for the tests of rules/cuda2hip (see CMakeLists.txt)."""
import glob
import os
import re
import subprocess
import tempfile

ENTRY_KINDS = ('function', 'type', 'enum', 'macro', 'namespace')

# Tables of the ROCm math libraries (hipBLAS, hipRAND, hipSPARSE, hipCUB): checked by
# check_lib_names.py against those libraries' headers, not by
# check_hip_names.py against the HIP runtime.  Value: the library whose
# headers declare the table's hip names (None: a header table, where each
# header's directory names its library).
LIBRARY_TABLES = {
    'lib-headers.yaml': None,
    'lib-cublas.yaml': 'hipblas',
    'lib-cublaslt.yaml': 'hipblaslt',
    'lib-curand.yaml': 'hiprand',
    'lib-cusparse.yaml': 'hipsparse',
    'lib-cub.yaml': 'hipcub',
}


def is_library_table(path):
    return os.path.basename(path) in LIBRARY_TABLES
ENTRY_KEYS = {'cuda', 'hip', 'kind', 'unsupported', 'note', 'reverse'}
TOP_KEYS = {'rule', 'title', 'entries', 'kind'}


def _scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return bytes(text[1:-1], 'utf-8').decode('unicode_escape')
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if text in ('true', 'false'):
        return text == 'true'
    return text


def _split_flow(body):
    """Split 'k: v, k: "v, w"' at top-level commas."""
    parts, cur, quote = [], '', None
    for ch in body:
        if quote:
            cur += ch
            if ch == quote and not cur.endswith('\\' + quote):
                quote = None
        elif ch in '"\'':
            quote = ch
            cur += ch
        elif ch == ',':
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _fallback_load(text):
    """Reader for the restricted layout of the tables (used when PyYAML is
    missing): top-level 'key: scalar' lines and an 'entries:' list of
    one-line flow mappings."""
    doc, entries = {}, None
    for raw in text.splitlines():
        line = re.sub(r'\s+#.*$', '', raw) if '"' not in raw else raw
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        m = re.match(r'^(\w+):\s*(.*)$', line)
        if m:
            if m.group(1) == 'entries':
                entries = doc['entries'] = []
            else:
                doc[m.group(1)] = _scalar(m.group(2))
            continue
        m = re.match(r'^\s+-\s*\{(.*)\}\s*(#.*)?$', line)
        if m and entries is not None:
            e = {}
            for part in _split_flow(m.group(1)):
                k, _, v = part.partition(':')
                e[k.strip()] = _scalar(v)
            entries.append(e)
            continue
        raise ValueError('unrecognized line: ' + raw)
    return doc


def load_yaml(path):
    text = open(path, encoding='utf-8').read()
    try:
        import yaml  # type: ignore
    except ImportError:
        return _fallback_load(text)
    return yaml.safe_load(text)


def table_files(rules_dir):
    return sorted(glob.glob(os.path.join(rules_dir, 'cuda2hip', '*.yaml')))


def load_tables(rules_dir):
    """[(path, doc)] for every table."""
    return [(p, load_yaml(p)) for p in table_files(rules_dir)]


def is_header_table(doc):
    return isinstance(doc, dict) and doc.get('kind') == 'header'


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_lines(cmd_prefix, prelude, lines, suffix='.hip'):
    """Compile prelude + one check per line; return (set of failing line
    indices, stderr).  Attribution is by the line number of each error."""
    body = prelude + ''.join(l + '\n' for l in lines)
    with tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False) as f:
        f.write(body)
        path = f.name
    try:
        r = run(cmd_prefix + ['-ferror-limit=0', path])
    finally:
        os.unlink(path)
    base = prelude.count('\n')
    bad = set()
    for m in re.finditer(re.escape(path) + r':(\d+):\d+: (?:fatal )?error', r.stderr):
        bad.add(int(m.group(1)) - base - 1)
    if r.returncode != 0 and not bad:
        bad.add(-1)  # failed outside the checked lines (prelude or driver)
    return bad, r.stderr


_TREE_TEXT = {}


def header_tree_text(root, suffixes=('.h',), extensionless=False):
    """The text of every header under root (files ending in one of suffixes,
    and files without an extension when extensionless), read once."""
    key = (root, suffixes, extensionless)
    if key not in _TREE_TEXT:
        parts = []
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith(suffixes) or (extensionless and '.' not in f):
                    with open(os.path.join(d, f), encoding='utf-8', errors='replace') as fh:
                        parts.append(fh.read())
        _TREE_TEXT[key] = '\n'.join(parts)
    return _TREE_TEXT[key]


def defines_macro(text, name):
    """Whether text has a #define of name."""
    return re.search(r'^\s*#\s*define\s+' + re.escape(name) + r'\b', text, re.M) is not None

