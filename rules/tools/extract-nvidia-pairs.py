#!/usr/bin/python3
"""Extract candidate CUDA<->HIP name pairs from HIP's NVIDIA-platform header.

On the NVIDIA platform HIP implements its API on top of CUDA, so
hip/nvidia_detail/nvidia_hip_runtime_api.h pairs almost every hip* name with
the cuda* name it forwards to:

  #define hipX cudaX                      -> (cudaX, hipX)
  typedef [enum|struct] cudaX hipX;       -> (cudaX, hipX)
  inline static hipError_t hipX(...) { ... cudaX(...) ... }   -> (cudaX, hipX)
  case cudaErrorX: return hipErrorY;      -> (cudaErrorX, hipErrorY)
  case hipX: ... cudaY ...                -> (cudaY, hipX)   (enum converters)

The output is a list of candidates for curating rules/cuda2hip/*.yaml, not a
table: every pair still has to exist on the AMD side of the HIP headers, which
the option --amd-check approximates by looking for the hip name as a word in
the headers outside nvidia_detail/ (the test rules.hip_names_exist is the
authoritative check: it compiles each name).

Usage: extract-nvidia-pairs.py [--hip-include /usr/include/hip] [--amd-check]
                               [--grep REGEX]
Prints "cuda<TAB>hip<TAB>how[<TAB>amd:yes|amd:no]" lines, sorted by cuda name.
"""
import argparse
import os
import re
import sys

# Helpers in the NVIDIA header that convert values; they are not API pairs.
CONVERTER = re.compile(r'^hip\w*To(?:hip|cuda|Cuda|CU)\w*$')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def extract(path):
    text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
    pairs = {}

    def add(cuda, hip, how):
        if CONVERTER.match(hip) or cuda == hip:
            return
        pairs.setdefault((cuda, hip), how)

    for m in re.finditer(r'^\s*#\s*define\s+(hip\w+|HIP\w+)\s+\(?\s*(cuda\w+|CU\w+|CUDA\w+)\s*\)?\s*$',
                         text, flags=re.M):
        add(m.group(2), m.group(1), 'define')
    for m in re.finditer(r'typedef\s+(?:enum\s+|struct\s+)?(cuda\w+|CU\w+)\s*(\*?)\s*(hip\w+)\s*;', text):
        add(m.group(1) + (' *' if m.group(2) else ''), m.group(3), 'typedef')

    # inline functions: find "hipX(" definitions and the first cuda call in the body.
    for m in re.finditer(r'inline\s+static\s+[\w\s\*]+?\b(hip\w+)\s*\(', text):
        name = m.group(1)
        if CONVERTER.match(name):
            continue
        start = text.find('{', m.end())
        if start < 0:
            continue
        depth, i = 0, start
        while i < len(text):
            if text[i] == '{':
                depth += 1
            elif text[i] == '}':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = text[start:i]
        calls = [c for c in re.findall(r'\b(cuda\w+|cu[A-Z]\w+)\s*\(', body)]
        if calls:
            add(calls[0], name, 'function')

    # switch-based converters.
    for m in re.finditer(r'case\s+(cuda\w+)\s*:\s*return\s+(hip\w+)\s*;', text):
        add(m.group(1), m.group(2), 'case')
    for m in re.finditer(r'case\s+(hip\w+)\s*:\s*(?:return\s+|\w+\s*=\s*)(cuda\w+)\s*;', text):
        add(m.group(2), m.group(1), 'case')
    return pairs


def amd_words(hip_include):
    words = set()
    for root, dirs, files in os.walk(hip_include):
        if 'nvidia_detail' in root or 'nvcc_detail' in root:
            continue
        for f in files:
            try:
                words.update(re.findall(r'\b\w+\b', open(os.path.join(root, f),
                                                         errors='replace').read()))
            except OSError:
                pass
    return words


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hip-include', default='/usr/include/hip')
    ap.add_argument('--amd-check', action='store_true')
    ap.add_argument('--grep', default=None, help='only pairs whose cuda name matches')
    a = ap.parse_args()
    src = os.path.join(a.hip_include, 'nvidia_detail', 'nvidia_hip_runtime_api.h')
    if not os.path.exists(src):
        sys.exit('not found: ' + src)
    pairs = extract(src)
    words = amd_words(a.hip_include) if a.amd_check else None
    for (cuda, hip), how in sorted(pairs.items()):
        if a.grep and not re.search(a.grep, cuda):
            continue
        line = f'{cuda}\t{hip}\t{how}'
        if words is not None:
            line += '\tamd:' + ('yes' if hip in words else 'no')
        print(line)


if __name__ == '__main__':
    main()
