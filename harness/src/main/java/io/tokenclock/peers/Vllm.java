package io.tokenclock.peers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.ReportSection;

/**
 * vLLM {@code bench serve --save-result} (one JSON object) and {@code --append-result} (one per line), and
 * {@code benchmark_serving.py}'s before it (0.6 on). Its summary keys ({@code mean_ttft_ms}, {@code p99_tpot_ms} ...)
 * are in ms, its arrays ({@code ttfts}, {@code itls}) in seconds; {@code start_times} are {@code time.perf_counter()}
 * readings, relative only, never epoch. Its TTFT ends at the first chunk with non-empty {@code choices}, a role-only
 * chunk included; its latency ends at the last content chunk. The variations of its versions, all read:
 * {@code "request_rate": "inf"} (a string, on purpose, at the default infinite rate), {@code model_id} or
 * {@code model_ids}, {@code "request_goodput:"} (the old key, with a colon) or {@code request_goodput}, no
 * {@code failed} before 0.8, and any key {@code --metadata} added beside its own.
 */
final class Vllm
{
    static final PeerRecord.Timing TIMING = new PeerRecord.Timing(
        "client-side (vLLM bench serve): from just before the POST to the last chunk with choices; [DONE] excluded",
        "vLLM: the first chunk with non-empty choices, a role-only chunk included (no token need be in it)",
        "vLLM: usage.completion_tokens when reported, else the generated text re-tokenized",
        "time.perf_counter (monotonic, seconds); start_times are relative, not epoch");
    static final Map<String, String> DEFINITIONS = Map.of(
        "ttft", "ends at the first chunk with choices, role-only included",
        "tpot", "(latency - ttft) / (output_len - 1), latency to the last content chunk",
        "inter_chunk_latency", "vLLM's itl: every gap between chunks with choices, role and empty ones included",
        "e2e", "vLLM's e2el: to the last chunk with choices");
    /** The keys vLLM itself writes; any other is {@code --metadata}'s (or a newer version's), listed in a note. */
    private static final Set<String> OWN = Set.of("date", "backend", "endpoint_type", "label", "model_id",
        "model_ids", "tokenizer_id", "num_prompts", "request_rate", "burstiness", "max_concurrency", "duration",
        "completed", "failed", "total_input_tokens", "total_output_tokens", "request_throughput", "request_goodput",
        "request_goodput:", "output_throughput", "total_token_throughput", "max_output_tokens_per_s",
        "max_concurrent_requests", "input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors",
        "start_times");
    private static final Pattern SUMMARY = Pattern.compile("(mean|median|std|p[0-9.]+)_[a-z0-9_]+_ms");

    private Vllm()
    {
    }

    /** @return whether {@code n} is in vLLM's shape: its counts and rates, with its summary keys or its model key. */
    static boolean is(final JsonNode n)
    {
        return n.isObject() && n.has("completed") && n.has("request_throughput") && !n.has("mean_e2e_latency_ms") &&
            (n.has("mean_ttft_ms") || n.has("model_id") || n.has("model_ids"));
    }

    static List<PeerRun> read(final PeerFile f, final List<PeerFile.Root> results) throws IOException
    {
        final List<PeerRun> runs = new ArrayList<>();
        for (int i = 0; i < results.size(); i++)
        {
            runs.add(one(f, results, i, results.size() == 1 ? "" : "line " + results.get(i).line() + ": "));
        }
        return runs;
    }

    /**
     * The summary figures of vLLM's shape, which SGLang's bench_serving keeps: {@code mean_X_ms}, {@code std_X_ms},
     * {@code median_X_ms}, {@code p90/p95/p99_X_ms} for X in ttft, tpot, itl and the end-to-end key, which the two
     * tools name differently ({@code e2el}, {@code e2e_latency}); a metric whose mean is absent is left out.
     */
    static Map<String, Dist> summaries(final PeerFile f, final JsonNode n, final String at, final long ok,
        final String e2eKey)
    {
        final Map<String, Dist> reported = new LinkedHashMap<>();
        for (final String[] m : new String[][] {{"ttft", "ttft"}, {"tpot", "tpot"}, {"itl", "inter_chunk_latency"},
            {e2eKey, "e2e"}})
        {
            if (n.has("mean_" + m[0] + "_ms"))
            {
                reported.put(m[1], PeerRecord.summary("ms", ok, ms(f, n, "mean_", m[0], at),
                    ms(f, n, "std_", m[0], at), ms(f, n, "median_", m[0], at), ms(f, n, "p90_", m[0], at),
                    ms(f, n, "p95_", m[0], at), ms(f, n, "p99_", m[0], at), null, null));
            }
        }
        return reported;
    }

    private static Double ms(final PeerFile f, final JsonNode n, final String stat, final String metric,
        final String at)
    {
        return PeerRecord.summaryTime(f, n, stat + metric + "_ms", at);
    }

    private static PeerRun one(final PeerFile f, final List<PeerFile.Root> roots, final int index, final String at)
        throws IOException
    {
        final JsonNode n = roots.get(index).tree();
        final long ok = f.count(n, "completed", at + "completed");
        final long failed = n.has("failed") ? f.count(n, "failed", at + "failed") : 0;
        final double duration = PeerRecord.duration(f, n, "duration", at);
        final Map<String, Dist> reported = summaries(f, n, at, ok, "e2el");
        final Samples samples = DetailArrays.read(f, index, roots.get(index), at, ok + failed, true);
        if (samples != null)
        {
            agree(f, at, reported, samples);
        }
        final List<String> notes = new ArrayList<>(List.of("summary keys are in ms, ttfts and itls in seconds " +
            "(converted to ms)", "start_times are perf_counter readings: relative to each other, not a date"));
        final Double rate = rate(f, n, "request_rate", at, notes);
        goodput(f, n, at, notes);
        PeerRecord.unread(n, k -> !OWN.contains(k) && !SUMMARY.matcher(k).matches(), notes);
        final Double concurrency = f.optional(n, "max_concurrency", at + "max_concurrency");
        final double input = f.count(n, "total_input_tokens", at + "total_input_tokens");
        final PeerRecord.Spec spec = new PeerRecord.Spec("vllm", PeerFile.text(n, "version"), model(n),
            PeerFile.text(n, "tokenizer_id"), PeerFile.text(n, "date"),
            PeerRecord.load(rate, concurrency == null ? null : concurrency.intValue(),
                n.has("num_prompts") ? (Long)f.count(n, "num_prompts", at + "num_prompts") : null, duration),
            PeerRecord.counts(ok, failed, f.count(n, "total_output_tokens", at + "total_output_tokens"),
                (long)input),
            new ReportSection.Throughput(f.number(n, "request_throughput", at + "request_throughput"),
                f.number(n, "output_throughput", at + "output_throughput"), duration > 0 ? input / duration : 0),
            samples == null ? reported : samples.distributions(), samples != null, PeerRecord.LINEAR);
        if (samples != null)
        {
            notes.add(samples.requests() + " successful requests recomputed from ttfts and itls");
        }
        return new PeerRun("vllm", "vllm bench serve --save-result", PeerRecord.of(spec, TIMING, duration), reported,
            DEFINITIONS, notes, samples == null ? null : samples.perRequest());
    }

    /** Refuses per-request arrays whose unit contradicts the summary (ms written where seconds are meant). */
    static void agree(final PeerFile f, final String at, final Map<String, Dist> reported, final Samples s)
    {
        f.agrees(at + "ttfts", "seconds", "mean_ttft_ms", mean(reported, "ttft"), s.ttftMeanMs());
        f.agrees(at + "itls", "seconds", "mean_itl_ms", mean(reported, "inter_chunk_latency"), s.gapMeanMs());
    }

    private static Double mean(final Map<String, Dist> reported, final String key)
    {
        return reported.containsKey(key) ? reported.get(key).mean() : null;
    }

    /** @return the model: {@code model_id}, or {@code model_ids} joined (a run over several models). */
    private static String model(final JsonNode n)
    {
        if (n.path("model_ids").isArray())
        {
            final List<String> ids = new ArrayList<>();
            n.get("model_ids").forEach(m -> ids.add(m.asText()));
            return String.join(", ", ids);
        }
        return PeerFile.text(n, "model_id");
    }

    /**
     * @return the request rate: a number, or Infinity for Python's bare {@code Infinity} and vLLM's string
     * {@code "inf"} (its default: every request at once); null when absent; any other string is an error.
     */
    static Double rate(final PeerFile f, final JsonNode n, final String field, final String at,
        final List<String> notes)
    {
        final JsonNode v = n.path(field);
        final Double rate;
        if (v.isTextual() && v.asText().matches("(?i)\\+?inf(inity)?"))
        {
            rate = Double.POSITIVE_INFINITY;
        }
        else if (v.isNumber() && v.asDouble() == Double.POSITIVE_INFINITY)
        {
            rate = Double.POSITIVE_INFINITY;
        }
        else
        {
            rate = f.optional(n, field, at + field);
            if (rate != null && rate < 0)
            {
                throw f.error(at + field, "a rate from 0, or \"inf\"", v);
            }
        }
        if (rate != null && rate.isInfinite())
        {
            notes.add(field + " " + (v.isTextual() ? "\"" + v.asText() + "\"" : "Infinity") +
                ": every request sent at once");
        }
        return rate;
    }

    /** Notes the goodput, under either of its keys ({@code "request_goodput:"}, with a colon, before 0.8). */
    private static void goodput(final PeerFile f, final JsonNode n, final String at, final List<String> notes)
    {
        for (final String key : List.of("request_goodput", "request_goodput:"))
        {
            final Double g = f.optional(n, key, at + key);
            if (g != null)
            {
                notes.add("goodput " + g + " req/s (its key \"" + key + "\"; its SLOs are not in the file)");
            }
        }
    }
}
