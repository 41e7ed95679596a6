#!/usr/bin/env python3
"""Summarises the interleaved tap/socket runs (ab/*.json, s10000/*.json): per cell and mode, tokenclock's ITL
error |p99| and max against the truth server's kernel send stamp, and CPU per chunk (user + system), one column per
run in run order. Usage: python3 table.py [DIR] (from this directory; DIR holds ab/ and s10000/, default .)."""
import glob, json, os, re

def rows(pattern):
    out = {}
    for f in sorted(glob.glob(pattern)):
        mode, run = re.match(r'.*/(tap|socket)-(\d+)\.json$', f).groups()
        for cell in json.load(open(f)):
            c = next(x for x in cell['clients'] if x['client'] == 'tokenclock')
            k = c['kernel_send']['itl_error_abs_ns']
            cpu = c['cpu_window']
            out.setdefault((cell['cell'], mode), []).append(
                (int(run), k['p99'] / 1e3, k['max'] / 1e3, cpu['user_us_per_chunk'] + cpu['sys_us_per_chunk']))
    return out

import sys
base = sys.argv[1] if len(sys.argv) > 1 else '.'
for pattern in (base + '/ab/*.json', base + '/s10000/*.json'):
    r = rows(pattern)
    if not r:
        continue
    print('| cell | stamps | ITL err p99 per run, µs | max per run, µs | CPU µs/chunk per run |')
    print('|---|---|---|---|---|')
    for (cell, mode), runs in sorted(r.items()):
        runs.sort()
        print('| %s | %s | %s | %s | %s |' % (cell, mode, ', '.join('%.1f' % x[1] for x in runs),
              ', '.join('%.0f' % x[2] for x in runs), ', '.join('%.1f' % x[3] for x in runs)))
    print()
