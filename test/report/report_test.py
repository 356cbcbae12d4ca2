#!/usr/bin/python3
"""Tests of `port-kernel report` (docs/report.md).

usage: report_test.py PORT_KERNEL SOURCE_DIR CASE
CASE: html (headless Chromium: content in the DOM, filters, a screenshot
that is not blank), patch (each target's patch applied with `git apply` to a
copy of the input tree equals the `port` output byte for byte), markdown,
bad-input, validate.
"""
import filecmp
import re
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy

PK, SRC, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
TREE = os.path.join(SRC, "test", "report", "tree")
TARGETS = "hip,cuda"


def run(args, cwd=None, ok=(0,)):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit("FAIL: %s exited %d\nstdout:\n%s\nstderr:\n%s"
                 % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
    print("ok: " + what)


def copy_tree(dst):
    shutil.copytree(TREE, dst)
    return dst


def read_png(path):
    """Decodes an 8-bit, non-interlaced PNG into an array (H, W, C)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and interlace == 0, "unsupported PNG"
    chans = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * chans
    img = numpy.zeros((h, stride), dtype=numpy.uint8)
    prev = [0] * stride
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if f == 0:
            out = list(line)
        elif f == 2:
            out = [(a + b) & 255 for a, b in zip(line, prev)]
        else:  # Sub, Average, Paeth: each byte depends on the one to its left
            out = [0] * stride
            for x in range(stride):
                a = out[x - chans] if x >= chans else 0
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + prev[x]) >> 1
                else:
                    b = prev[x]
                    c = prev[x - chans] if x >= chans else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                out[x] = (line[x] + pred) & 255
        img[y] = out
        prev = out
    return img.reshape(h, w, chans)


def chromium(args, html, tmp):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    check(exe is not None, "chromium is installed (scripts/setup.sh)")
    profile = os.path.join(tmp, "profile")
    base = [exe, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=" + profile, "--virtual-time-budget=3000"]
    env = dict(os.environ, HOME=tmp)
    p = subprocess.run(base + args + [html], capture_output=True, text=True,
                       env=env, timeout=240)
    return p


def case_html(tmp):
    html = os.path.join(tmp, "report.html")
    run([PK, "report", "--to", TARGETS, "-o", html, TREE])
    text = open(html, encoding="utf-8").read()
    # Self-contained: nothing is fetched.
    for bad in ("<script src", "<link", "@import", "url(", "http://", "https://"):
        check(bad not in text, "no external resource (%s)" % bad)
    check("prefers-color-scheme: dark" in text, "dark-mode styles")

    p = chromium(["--dump-dom"], "file://" + html, tmp)
    dom = p.stdout
    check("<h1>port-kernel report</h1>" in dom, "Chromium rendered the page")
    check("hunks shown" in dom, "the filter script ran (hunk count shown)")
    for s in ('id="summary"', "Edits by rule", "Flagged constructs",
              'id="kernels"', "block_sums", "halves", "saxpy",
              "kernels/reduce.cu</code> \u2192 <code>kernels/reduce.hip",
              "kernels/warp_sum.cuh</code> \u2192 <code>kernels/warp_sum.hpp",
              'data-target="hip"', 'data-target="cuda"',
              "not run (use --validate)"):
        check(s in dom, "DOM has %r" % s)
    # Hunks carry rule IDs linked to the embedded docs.
    check('class="hunk" data-rules="' in dom, "hunks carry their rules")
    check('href="#rule-PK2010"' in dom and 'id="rule-PK2010"' in dom,
          "a rule badge links to the rule's embedded documentation")
    check("mask 0x0000ffff is not the full warp" in dom,
          "the PK2010 warning is shown at its line")
    check('<tr class="diag"' in dom, "diagnostics are rows of the diff")
    check("native 64-lane warps" in dom or "logical 32-lane warps" in dom,
          "a kernel's wave-64 strategy (PK2000) is shown")
    check('class="tk-kw"' in dom and 'class="tk-gpu"' in dom,
          "code is syntax highlighted")
    # Every edit of the port is explained in some hunk: the JSON report's
    # rules all appear as hunk badges.
    import json
    rj = os.path.join(tmp, "r.json")
    run([PK, "port", "-q", "--to", TARGETS, "--report", rj, "-o",
         os.path.join(tmp, "out"), TREE], ok=(0, 3))
    rules = {e["rule"] for t in json.load(open(rj))["targets"]
             for e in t["edits"] if e["why"] != "diagnostic"}
    check(len(rules) >= 3, "the port made edits of several rules")
    in_hunks = set()
    for r in re.findall(r'<div class="hunk" data-rules="([^"]*)"', dom):
        in_hunks.update(r.split())
    for r in sorted(rules):
        check(r in in_hunks and 'id="rule-%s"' % r in dom,
              "rule %s of the JSON report marks a hunk and is documented" % r)

    # Filters set from the address: errors only hides the warning hunks;
    # target cuda only hides the hip section.
    p = chromium(["--dump-dom"], "file://" + html + "#target=cuda", tmp)
    check('<section class="target" data-target="hip" hidden' in p.stdout,
          "target filter hides the hip section")
    p = chromium(["--dump-dom"], "file://" + html + "#rule=PK2010", tmp)
    hunks = re.findall(r'<div class="hunk" data-rules="([^"]*)" data-sevs="[^"]*"( hidden="")?>',
                       p.stdout)
    check(any("PK2010" in r.split() and not h for r, h in hunks),
          "rule filter shows the PK2010 hunks")
    check(all(h for r, h in hunks if "PK2010" not in r.split()) and
          any(h for r, h in hunks), "rule filter hides the other hunks")
    p = chromium(["--dump-dom"], "file://" + html + "#sev=error", tmp)
    hunks = re.findall(r'<div class="hunk" data-rules="[^"]*" data-sevs="([^"]*)"( hidden="")?>',
                       p.stdout)
    check(hunks and all(h for s, h in hunks if "error" not in s.split()),
          "severity filter (errors) hides the hunks without errors")

    png = os.path.join(tmp, "shot.png")
    p = chromium(["--screenshot=" + png, "--window-size=1280,1000",
                  "--hide-scrollbars"], "file://" + html, tmp)
    check(os.path.exists(png), "a screenshot was written")
    img = read_png(png)[:, :, :3].astype(float)
    check(img.shape[0] >= 800 and img.shape[1] >= 1000, "screenshot size %s" % (img.shape,))
    check(img.std() > 10, "screenshot is not blank (std %.1f)" % img.std())
    colours = len({tuple(c) for c in img[::7, ::7].reshape(-1, 3).astype(int)})
    check(colours > 20, "screenshot has text and colours (%d colours)" % colours)
    check(img.mean() > 170, "light scheme: a light page (mean %.0f)" % img.mean())
    dark = os.path.join(tmp, "dark.png")
    chromium(["--screenshot=" + dark, "--window-size=1280,1000",
              "--hide-scrollbars", "--force-dark-mode",
              "--blink-settings=preferredColorScheme=0"], "file://" + html, tmp)
    img = read_png(dark)[:, :, :3].astype(float)
    check(img.mean() < 90 and img.std() > 10,
          "dark scheme (prefers-color-scheme): a dark page with text (mean %.0f)"
          % img.mean())


def tree_files(root):
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def case_patch(tmp):
    pdir = os.path.join(tmp, "patches")
    targets = TARGETS + ",nki"  # nki: outputs generated whole, .cu -> .py
    run([PK, "report", "--to", targets, "-o", os.path.join(tmp, "r.html"),
         "--patch-dir", pdir, TREE])
    out = os.path.join(tmp, "out")
    run([PK, "port", "-q", "--to", targets, "-o", out, TREE], ok=(0, 3))
    for t in targets.split(","):
        patch = os.path.join(pdir, t + ".patch")
        # A target that changes no file gets no patch (git apply rejects an
        # empty one) and a note.
        text = open(patch).read() if os.path.exists(patch) else ""
        check(text or not os.path.exists(patch), "%s: no empty patch file" % t)
        if t == "hip":
            check("diff --git a/kernels/reduce.cu b/kernels/reduce.hip\n" in text,
                  "hip patch has a/ b/ paths")
            check("rename from kernels/warp_sum.cuh\nrename to kernels/warp_sum.hpp"
                  in text, "hip patch renames the header")
        work = copy_tree(os.path.join(tmp, "apply-" + t))
        if text:
            run(["git", "apply", "--check", patch], cwd=work)
            run(["git", "apply", patch], cwd=work)
        else:
            print("note: %s leaves every file as it is: empty patch" % t)
        want = os.path.join(out, t)
        check(tree_files(work) == tree_files(want),
              "%s: the patched tree has the port's files %s" % (t, tree_files(want)))
        for f in tree_files(want):
            check(filecmp.cmp(os.path.join(work, f), os.path.join(want, f),
                              shallow=False),
                  "%s: %s equals the port output byte for byte" % (t, f))


def case_markdown(tmp):
    md = os.path.join(tmp, "r.md")
    run([PK, "report", "--to", TARGETS, "-o", os.path.join(tmp, "r.html"),
         "--markdown", md, TREE])
    text = open(md).read()
    for s in ("## port-kernel report", "| target | files changed | edits |",
              "| hip |", "| cuda |", "**Validation:** not run",
              "### Flagged lines", "`kernels/reduce.cu:", "[PK2010]",
              "<details><summary>hip: <code>kernels/reduce.cu</code>",
              "</details>"):
        check(s in text, "markdown has %r" % s)
    check("http" not in text, "markdown links nowhere outside")


def case_bad_input(tmp):
    work = copy_tree(os.path.join(tmp, "tree"))
    html = os.path.join(tmp, "r.html")
    p = run([PK, "report", "--to", "hip,metal", "-o", html, work], ok=(2,))
    check("unknown target 'metal'" in p.stderr, "unknown target is named")
    check(not os.path.exists(html), "nothing written for an unknown target")
    src = os.path.join(work, "saxpy.cu")
    before = open(src, "rb").read()
    p = run([PK, "report", "--to", "hip", "-o", src, work], ok=(2,))
    check("would overwrite the input" in p.stderr and "saxpy.cu" in p.stderr,
          "an output on an input is refused: " + p.stderr.strip().splitlines()[-2])
    check(open(src, "rb").read() == before, "the input is untouched")
    hdr = os.path.join(work, "kernels", "warp_sum.cuh")
    p = run([PK, "report", "--to", "hip", "-o", html, "--markdown", hdr, work],
            ok=(2,))
    check("--markdown" in p.stderr and "no output written" in p.stderr,
          "a --markdown path on an included header is refused")
    check(not os.path.exists(html), "all or nothing: the HTML is not written")
    p = run([PK, "report", "--to", "hip", work], ok=(2,))
    check("-o" in p.stderr, "report without -o is a usage error")
    p = run([PK, "report", "--to", "hip", "-o", html,
             os.path.join(tmp, "missing")], ok=(2,))
    check("missing" in p.stderr, "a missing input is an input error")
    check(sorted(tree_files(work)) == sorted(tree_files(TREE)), "the input tree has no new files")


def case_validate(tmp):
    html = os.path.join(tmp, "r.html")
    md = os.path.join(tmp, "r.md")
    run([PK, "report", "--to", "hip,cuda", "--validate", "-o", html,
         "--markdown", md, os.path.join(SRC, "corpus", "saxpy")])
    text = open(html).read()
    check('id="validation"' in text, "HTML has the validation table")
    for v in ("hip", "cuda"):
        check('<td><code>saxpy</code></td><td><code>saxpy</code> <span '
              'class="muted">saxpy.cu:4</span></td><td>%s</td><td class="pass">'
              'pass</td>' % v in text, "kernel saxpy passes as %s" % v)
    check("passed</span>: 3 passed, 0 failed" in text, "summary says validation passed")
    mdt = open(md).read()
    check("**Validation:** passed (3 passed, 0 failed" in mdt,
          "markdown says validation passed")
    check("| `saxpy` | `saxpy` | hip | pass |" in mdt, "markdown has the hip cell")

    # Per kernel: a case's verdict is its entry kernel's (with its line);
    # the other kernels of its file, and kernels outside any case, are
    # listed as not validated.
    tree = os.path.join(tmp, "vtree")
    shutil.copytree(os.path.join(SRC, "test", "report", "vtree"), tree)
    html = os.path.join(tmp, "k.html")
    md = os.path.join(tmp, "k.md")
    run([PK, "report", "--to", "hip,cuda", "--wave64", "native", "--validate",
         "-o", html, "--markdown", md, tree])
    text = open(html).read()
    cell = ('<td><code>two</code></td><td><code>warp_width</code> '
            '<span class="muted">two/two.cu:6</span></td><td>%s</td>')
    check(cell % "cuda" + '<td class="pass">pass</td>' in text,
          "kernel warp_width passes as cuda, at its line")
    m = re.search(re.escape(cell % "hip") +
                  r'<td class="fail">fail</td><td>([^<]+)</td><td>([^<]+)</td>',
                  text)
    check(m is not None and float(m.group(1)) == 32.0,
          "kernel warp_width fails as hip with its largest error (%s)"
          % (m.group(1) if m else None))
    check("<li><code>clear_all (two/two.cu:4)</code>: in the directory of "
          "case two, whose driver launches only warp_width</li>" in text,
          "the kernel the case does not launch is not validated, and says why")
    check("<li><code>scale (plain/scale.cu:4)</code>: no case launches it</li>"
          in text, "a kernel outside any case is not validated")
    check("clear_all" not in text.split('id="not-validated"')[0]
          .split('id="validation"')[1], "no verdict is given to clear_all")
    mdt = open(md).read()
    check("| `two` | `warp_width` | hip | **fail** | 3.20e+01 / 1.00e+00 |" in mdt,
          "markdown: per kernel and target, the largest error")
    check("- `clear_all (two/two.cu:4)`: in the directory of case two" in mdt,
          "markdown lists the kernels not validated")


tmp = tempfile.mkdtemp(prefix="pk-report-test-")
try:
    {"html": case_html, "patch": case_patch, "markdown": case_markdown,
     "bad-input": case_bad_input, "validate": case_validate}[CASE](tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
