#!/usr/bin/python3
"""Reference peer client for the ground-truth accuracy grid (docs/ACCURACY.md, "The peer client").

It measures a streaming OpenAI chat-completions server the way vLLM's ``vllm bench serve`` does, so that
scripts/accuracy can put a widely used Python client next to tokenclock and the JDK HttpClient baseline, joined
with the same TruthServer truth log. Written from a reading of vLLM's
``vllm/benchmarks/lib/endpoint_request_func.py`` (``async_request_openai_chat_completions``,
``StreamedResponseHandler``) and ``vllm/benchmarks/serve.py`` (``benchmark()``, ``get_request()``), and of the older
``benchmarks/backend_request_func.py``; no code is copied. What it reproduces:

* aiohttp, ONE ``aiohttp.ClientSession`` shared by every request, over a ``TCPConnector`` whose ``limit`` and
  ``limit_per_host`` are the maximum concurrency (0 = unlimited), keep-alive 60 s, as ``benchmark()`` builds it;
  total timeout per request from ``--timeout-s`` (vLLM: 6 h);
* an ``asyncio.Semaphore(max_concurrency)`` around each request (``limited_request_func``); closed loop = every
  request created at once, the semaphore keeping ``--streams`` in flight; a warm-up batch is gathered to the end
  before the measured run starts, as ``benchmark()`` does with ``--num-warmups``;
* open loop: intended start times fixed before the run from Poisson inter-arrivals (vLLM's ``get_request`` with
  burstiness 1, i.e. gamma of shape 1 = exponential), each request sent at ``start + cumulative delay`` by sleeping
  for what is left of it (``asyncio.sleep``), then the semaphore, then the request;
* the response read with ``response.content.iter_any()``; each read stripped of surrounding whitespace, decoded
  with an incremental UTF-8 decoder, appended to a buffer and split into SSE messages on blank lines (``\\n\\n``); a
  tail that is a complete ``data: `` JSON object or ``[DONE]`` is taken as a message too (that is what makes the
  strip of a read ending in ``\\n\\n`` harmless in vLLM); comments (``:``) skipped; ``data: `` prefix removed;
* the stamp: ``time.perf_counter()`` (here ``perf_counter_ns()``) read once per message right after the message is
  split out of the buffer and before ``json.loads``, so a read that carries several messages gives them
  consecutive stamps a few microseconds apart, each one after the previous message was parsed;
* a chunk counts as a token when ``choices[0].delta.content`` is non-empty (the rule of
  ``backend_request_func.py``; newer vLLM counts every chunk with ``choices``, which would make the role-only first
  chunk the "first token" and break the per-chunk join). The request's start stamp (``st``) is read after the
  semaphore was acquired, immediately before ``session.post``.

Deliberate differences, all so that the join with the truth log and the comparison are exact: the arrival gaps
come from the same SplitMix64 generator and formula tokenclock uses (java.util.SplittableRandom(seed).nextDouble(),
gap = -ln(1 - u) / rate, first request at offset 0) instead of numpy, so every client of a cell gets the same
schedule from the same ``--seed``; vLLM's rescaling of the whole schedule to ``requests / rate`` is not done; in
open loop the first ``--warmup-requests`` entries of the schedule are the warm-up (tokenclock's rule) instead of a
separate batch; the request body is the JDK baseline's (``max_tokens``, string content).

Stamps: every ``*_ns`` is ``time.perf_counter_ns()``, i.e. CLOCK_MONOTONIC on Linux, the clock of Java's
``System.nanoTime()`` and of the TruthServer's ``tc_sent_ns``, so they compare directly across processes.

Output: one JSON line per request, the subset of tokenclock's requests.jsonl that AccuracyReport reads: ``id``,
``response_id`` (the ``id`` of the first chunk that has one), ``phase`` (warmup|measure), ``status`` (ok|error),
``error``, ``error_detail``, ``sent_ns`` (vLLM's ``st``), ``first_token_ns``, ``end_ns`` (body ended),
``chunk_ns`` (one stamp per content chunk), ``chunks``, and in open loop ``scheduled_ns`` (intended start).

Stdlib and aiohttp only; installs nothing. Loopback use: it connects only to the URL it is given.
"""

import argparse
import asyncio
import codecs
import json
import math
import sys
import time

import aiohttp

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    """java.util.SplittableRandom(seed): same seed, same doubles, so the schedule matches tokenclock's."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next_long(self):
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def next_double(self):
        return (self.next_long() >> 11) * (1.0 / (1 << 53))


def poisson_offsets_ns(rate, count, seed):
    """Intended start offsets (ns after the start) of `count` requests: 0, then cumulative exponential gaps."""
    rng = SplitMix64(seed)
    mean_gap_ns = 1e9 / rate
    offset = 0.0
    out = []
    for i in range(count):
        if i > 0:
            offset += -math.log(1.0 - rng.next_double()) * mean_gap_ns
        out.append(int(offset))
    return out


class SseSplitter:
    """Accumulates reads and hands back complete SSE messages, split on blank lines."""

    def __init__(self):
        self.buffer = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def feed(self, data):
        self.buffer += self.decoder.decode(data)
        messages = []
        while True:
            cut = self.buffer.find("\n\n")
            if cut < 0:
                break
            message = self.buffer[:cut].strip()
            self.buffer = self.buffer[cut + 2:]
            if message:
                messages.append(message)
        # The read was stripped, so a last message may lack its blank line: take it if it is complete.
        if self.buffer.startswith("data: "):
            body = self.buffer[len("data: "):].strip()
            if body == "[DONE]":
                messages.append(self.buffer.strip())
                self.buffer = ""
            elif body:
                try:
                    json.loads(body)
                except ValueError:
                    pass  # incomplete: wait for the next read
                else:
                    messages.append(self.buffer.strip())
                    self.buffer = ""
        return messages


async def one_request(session, url, body):
    """One streamed request; returns (sent_ns, end_ns, chunk_ns, response_id, error, detail)."""
    chunk_ns = []
    response_id = None
    error = None
    detail = None
    done = False
    sent_ns = time.perf_counter_ns()
    try:
        async with session.post(url=url, json=body, headers={"Content-Type": "application/json"}) as response:
            if response.status != 200:
                error = "http_%d" % response.status
                detail = "HTTP %d %s" % (response.status, response.reason or "")
            else:
                splitter = SseSplitter()
                async for data in response.content.iter_any():
                    data = data.strip()
                    if not data:
                        continue
                    for message in splitter.feed(data):
                        if message.startswith(":"):
                            continue
                        chunk = message[len("data: "):] if message.startswith("data: ") else message
                        if chunk == "[DONE]":
                            done = True
                            continue
                        stamp = time.perf_counter_ns()
                        try:
                            event = json.loads(chunk)
                        except ValueError:
                            error = "malformed_event"
                            detail = chunk[:200]
                            continue
                        if not isinstance(event, dict):
                            continue
                        if "error" in event:
                            error = "error_event"
                            detail = json.dumps(event["error"])[:200]
                            continue
                        if response_id is None and isinstance(event.get("id"), str):
                            response_id = event["id"]
                        choices = event.get("choices")
                        if choices:
                            delta = choices[0].get("delta") or {}
                            if delta.get("content"):
                                chunk_ns.append(stamp)
                if not done and error is None:
                    error = "stream_cut"
                    detail = "body ended without [DONE]"
        end_ns = time.perf_counter_ns()
    except asyncio.TimeoutError as ex:
        end_ns = time.perf_counter_ns()
        error = "timeout"
        detail = repr(ex)
    except Exception as ex:  # as vLLM: any failure ends this request only, recorded as an error
        end_ns = time.perf_counter_ns()
        error = "client_error"
        detail = repr(ex)[:300]
    if error is None and not chunk_ns:
        error = "no_content"
    return sent_ns, end_ns, chunk_ns, response_id, error, detail


class Run:
    """Counts and the output file of one run."""

    def __init__(self, out):
        self.out = out
        self.ok = 0
        self.errors = 0
        self.chunks = 0

    def record(self, rid, warmup, result, scheduled_ns):
        sent_ns, end_ns, chunk_ns, response_id, error, detail = result
        if not warmup:
            if error is None:
                self.ok += 1
            else:
                self.errors += 1
            self.chunks += len(chunk_ns)
        line = {
            "id": rid,
            "response_id": response_id,
            "phase": "warmup" if warmup else "measure",
            "status": "ok" if error is None else "error",
            "error": error,
            "error_detail": detail,
        }
        if scheduled_ns is not None:
            line["scheduled_ns"] = scheduled_ns
        line.update({
            "sent_ns": sent_ns,
            "first_token_ns": chunk_ns[0] if chunk_ns else 0,
            "end_ns": end_ns,
            "chunk_ns": chunk_ns,
            "chunks": len(chunk_ns),
        })
        self.out.write(json.dumps(line, separators=(",", ":")) + "\n")


async def main_async(args):
    url = args.url.rstrip("/") + "/chat/completions"
    body = {
        "model": args.model,
        "messages": [{"role": "user", "content": "count to a large number, please"}],
        "max_tokens": args.max_tokens,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    open_loop = args.rate is not None
    limit = args.streams if not open_loop else args.max_concurrency
    connector = aiohttp.TCPConnector(limit=limit, limit_per_host=limit, ttl_dns_cache=300, use_dns_cache=True,
                                     keepalive_timeout=60, enable_cleanup_closed=True, force_close=False)
    timeout = aiohttp.ClientTimeout(total=args.timeout_s)
    total = args.warmup_requests + args.requests
    started = time.perf_counter_ns()
    with open(args.output, "w", encoding="utf-8") as out:
        run = Run(out)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            semaphore = asyncio.Semaphore(limit) if limit > 0 else None

            async def limited(rid, warmup, scheduled_ns):
                if semaphore is None:
                    result = await one_request(session, url, body)
                else:
                    async with semaphore:
                        result = await one_request(session, url, body)
                run.record(rid, warmup, result, scheduled_ns)

            # Bounded: every request has its own total timeout; the whole run gets that plus the schedule.
            if not open_loop:
                if args.warmup_requests > 0:
                    await asyncio.gather(*[limited(i, True, None) for i in range(args.warmup_requests)])
                await asyncio.gather(*[limited(i, False, None) for i in range(args.warmup_requests, total)])
            else:
                offsets = poisson_offsets_ns(args.rate, total, args.seed)
                t0 = time.perf_counter_ns()
                tasks = []
                for i, offset in enumerate(offsets):
                    intended = t0 + offset
                    wait_ns = intended - time.perf_counter_ns()
                    if wait_ns > 0:
                        await asyncio.sleep(wait_ns / 1e9)
                    tasks.append(asyncio.create_task(limited(i, i < args.warmup_requests, intended)))
                await asyncio.gather(*tasks)
    wall = (time.perf_counter_ns() - started) / 1e9
    print("vllm-peer: measured %d ok, %d errors, %d chunks; %.2f s in all" % (run.ok, run.errors, run.chunks, wall))
    return 0 if run.ok > 0 else 1


def parse_args(argv):
    p = argparse.ArgumentParser(description="vLLM bench-serve-style peer client for scripts/accuracy "
                                            "(see the module docstring)")
    p.add_argument("--url", required=True, help="API base, http://127.0.0.1:PORT/v1")
    p.add_argument("--model", default="m")
    p.add_argument("--streams", type=int, default=1, help="closed loop: requests in flight")
    p.add_argument("--requests", type=int, default=-1, help="measured requests (default: --streams)")
    p.add_argument("--warmup-requests", type=int, default=0)
    p.add_argument("--max-tokens", type=int, default=16)
    p.add_argument("--output", required=True, help="requests.jsonl to write")
    p.add_argument("--timeout-s", type=float, default=600)
    p.add_argument("--rate", type=float, default=None, help="open loop: mean arrival rate, requests/s")
    p.add_argument("--arrival", default="poisson", choices=["poisson"])
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--max-concurrency", type=int, default=0, help="open loop: cap in flight (0 = none)")
    args = p.parse_args(argv)
    if args.requests < 0:
        args.requests = args.streams
    if args.streams < 1 or args.max_tokens < 1 or args.requests < 0 or args.warmup_requests < 0:
        p.error("--streams >= 1, --max-tokens >= 1, --requests >= 0 and --warmup-requests >= 0 needed")
    if args.rate is not None and not (args.rate > 0 and math.isfinite(args.rate)):
        p.error("--rate must be a positive finite number")
    if args.max_concurrency < 0:
        p.error("--max-concurrency must be >= 0")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main_async(parse_args(sys.argv[1:]))))
