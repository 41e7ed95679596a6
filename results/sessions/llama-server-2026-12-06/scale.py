# Writes aiperf-inference-day-2026-scaled.jsonl from the test fixture (AIPerf's trace, its first 32 lines):
# input_length / 64 (rounded up) with 8-token blocks, so every hash id keeps its one block (512 / 64 = 8) and the
# last block stays partial; output_length / 16 (rounded up); session_id, timestamp, delay, hash_ids, group_id as published.
import json, math
SRC = 'harness/src/test/resources/io/tokenclock/workload/traces/aiperf-inference-day-2026.jsonl'
with open(SRC) as src, open('aiperf-inference-day-2026-scaled.jsonl', 'w') as out:
    for line in src:
        r = json.loads(line)
        n = len(r['hash_ids'])
        r['input_length'] = math.ceil(r['input_length'] / 64)
        assert (n - 1) * 8 < r['input_length'] <= n * 8, r
        r['output_length'] = max(1, math.ceil(r['output_length'] / 16))
        out.write(json.dumps(r, separators=(',', ':')) + '\n')
