package io.tokenclock.peers;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.Dist;
import io.tokenclock.record.ReportSection;

/**
 * vLLM {@code bench serve --save-result} (one JSON object) and {@code --append-result} (one per line). Its summary
 * keys ({@code mean_ttft_ms}, {@code p99_tpot_ms} ...) are in ms, its arrays ({@code ttfts}, {@code itls}) in seconds;
 * {@code start_times} are {@code time.perf_counter()} readings, relative only, never epoch. Its TTFT ends at the first
 * chunk with non-empty {@code choices}, a role-only chunk included; its latency ends at the last content chunk.
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

    private Vllm()
    {
    }

    /** @return whether {@code n} is in vLLM's shape: its summary keys beside {@code completed}. */
    static boolean is(final JsonNode n)
    {
        return n.isObject() && n.has("completed") && n.has("mean_ttft_ms") && !n.has("mean_e2e_latency_ms");
    }

    static List<PeerRun> read(final PeerFile f, final List<JsonNode> results)
    {
        final List<PeerRun> runs = new ArrayList<>();
        for (int i = 0; i < results.size(); i++)
        {
            runs.add(one(f, results.get(i), results.size() == 1 ? "" : "line " + (i + 1) + ": "));
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
                reported.put(m[1], PeerRecord.summary("ms", ok, f.optional(n, "mean_" + m[0] + "_ms", at + "mean_" +
                    m[0] + "_ms"), f.optional(n, "std_" + m[0] + "_ms", at + "std_" + m[0] + "_ms"),
                    f.optional(n, "median_" + m[0] + "_ms", at + "median_" + m[0] + "_ms"),
                    f.optional(n, "p90_" + m[0] + "_ms", at + "p90_" + m[0] + "_ms"),
                    f.optional(n, "p95_" + m[0] + "_ms", at + "p95_" + m[0] + "_ms"),
                    f.optional(n, "p99_" + m[0] + "_ms", at + "p99_" + m[0] + "_ms"), null, null));
            }
        }
        return reported;
    }

    private static PeerRun one(final PeerFile f, final JsonNode n, final String at)
    {
        final long ok = (long)f.number(n, "completed", at + "completed");
        final double duration = f.number(n, "duration", at + "duration");
        final Map<String, Dist> reported = summaries(f, n, at, ok, "e2el");
        final Samples samples = samples(f, n, at);
        final List<String> notes = new ArrayList<>(List.of("summary keys are in ms, ttfts and itls in seconds " +
            "(converted to ms)", "start_times are perf_counter readings: relative to each other, not a date"));
        final Double rate = f.optional(n, "request_rate", at + "request_rate");
        final Double concurrency = f.optional(n, "max_concurrency", at + "max_concurrency");
        final PeerRecord.Spec spec = new PeerRecord.Spec("vllm", PeerFile.text(n, "version"),
            PeerFile.text(n, "model_id"), PeerFile.text(n, "tokenizer_id"), PeerFile.text(n, "date"),
            PeerRecord.load(rate, concurrency == null ? null : concurrency.intValue(),
                n.has("num_prompts") ? (Long)(long)f.number(n, "num_prompts", at + "num_prompts") : null, duration),
            PeerRecord.counts(ok, n.has("failed") ? (long)f.number(n, "failed", at + "failed") : 0,
                (long)f.number(n, "total_output_tokens", at + "total_output_tokens"),
                (long)f.number(n, "total_input_tokens", at + "total_input_tokens")),
            new ReportSection.Throughput(f.number(n, "request_throughput", at + "request_throughput"),
                f.number(n, "output_throughput", at + "output_throughput"), ok > 0 ? f.number(n, "total_input_tokens",
                at + "total_input_tokens") / duration : 0),
            samples == null ? reported : samples.distributions(), samples != null, PeerRecord.LINEAR);
        return new PeerRun("vllm", "vllm bench serve --save-result", PeerRecord.of(spec, TIMING, duration), reported,
            DEFINITIONS, notes, samples == null ? null : samples.perRequest());
    }

    /** @return the successful requests' samples from {@code ttfts}, {@code itls}, {@code output_lens}, or null. */
    static Samples samples(final PeerFile f, final JsonNode n, final String at)
    {
        final double[] ttfts = f.numbers(n, "ttfts", at + "ttfts", 1000);
        final JsonNode itls = n.path("itls");
        if (ttfts == null || !itls.isArray())
        {
            return null;
        }
        final double[] lens = f.numbers(n, "output_lens", at + "output_lens", 1);
        final double[] starts = n.path("start_times").size() == ttfts.length ?
            f.numbers(n, "start_times", at + "start_times", 1) : null;
        final JsonNode errors = n.path("errors");
        final List<double[]> gaps = new ArrayList<>();
        final List<Double> ttft = new ArrayList<>();
        final List<Double> out = new ArrayList<>();
        final List<Double> start = new ArrayList<>();
        for (int i = 0; i < ttfts.length; i++)
        {
            final String error = errors.path(i).asText("");
            if (!error.isEmpty() || (lens != null && i < lens.length && lens[i] == 0))
            {
                continue; // a failed request: vLLM writes ttft 0 and no gaps for it
            }
            ttft.add(ttfts[i]);
            if (starts != null)
            {
                start.add(starts[i]);
            }
            gaps.add(f.numbersAt(itls, i, at + "itls[" + i + "]", 1000));
            out.add(lens == null || i >= lens.length ? 0 : lens[i]);
        }
        final double[] t = ttft.stream().mapToDouble(Double::doubleValue).toArray();
        final double[] e2e = new double[t.length];
        for (int i = 0; i < t.length; i++)
        {
            double s = t[i];
            for (final double g : gaps.get(i))
            {
                s += g;
            }
            e2e[i] = s; // the last content chunk, as vLLM ends its latency
        }
        return new Samples(t, e2e, out.stream().mapToDouble(Double::doubleValue).toArray(), gaps, null,
            starts == null ? null : start.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
