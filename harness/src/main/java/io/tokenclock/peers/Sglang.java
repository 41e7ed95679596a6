package io.tokenclock.peers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.ReportSection;

/**
 * SGLang {@code bench_serving --output-file}: JSONL, one result per line, written by Python's {@code json} (so an
 * unbounded rate is a bare {@code Infinity}). Summary keys in ms; with {@code --output-details}, {@code ttfts} and
 * {@code itls} per request, in seconds. Its end-to-end latency ends at {@code [DONE]}.
 */
final class Sglang
{
    static final PeerRecord.Timing TIMING = new PeerRecord.Timing(
        "client-side (SGLang bench_serving): from just before the POST to the [DONE] event",
        "SGLang: the first chunk carrying generated text",
        "SGLang: usage.completion_tokens when reported, else the generated text re-tokenized",
        "time.perf_counter (monotonic, seconds)");
    static final Map<String, String> DEFINITIONS = Map.of(
        "tpot", "(latency - ttft) / (output_len - 1), latency to [DONE]",
        "inter_chunk_latency", "SGLang's itl: every gap between chunks",
        "e2e", "SGLang's e2e_latency: to [DONE]");

    private Sglang()
    {
    }

    /** @return whether {@code n} is in SGLang's shape: {@code mean_e2e_latency_ms} beside {@code completed}. */
    static boolean is(final JsonNode n)
    {
        return n.isObject() && n.has("completed") && n.has("mean_e2e_latency_ms");
    }

    static List<PeerRun> read(final PeerFile f, final List<PeerFile.Root> lines) throws IOException
    {
        final List<PeerRun> runs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            runs.add(one(f, lines, i, lines.size() == 1 ? "" : "line " + lines.get(i).line() + ": "));
        }
        return runs;
    }

    private static PeerRun one(final PeerFile f, final List<PeerFile.Root> lines, final int index, final String at)
        throws IOException
    {
        final JsonNode n = lines.get(index).tree();
        final long ok = f.count(n, "completed", at + "completed");
        final double duration = PeerRecord.duration(f, n, "duration", at);
        final Map<String, Dist> reported = Vllm.summaries(f, n, at, ok, "e2e_latency");
        final Samples samples = DetailArrays.read(f, index, lines.get(index), at, ok, false);
        if (samples != null)
        {
            Vllm.agree(f, at, reported, samples);
        }
        final List<String> notes = new ArrayList<>(List.of("ttfts and itls are in seconds (converted to ms)",
            "its e2e ends at [DONE]; recomputed from the file, TPOT is the sum of the chunk gaps over n_out - 1"));
        final Double rate = Vllm.rate(f, n, "request_rate", at, notes);
        final Double concurrency = f.optional(n, "max_concurrency", at + "max_concurrency");
        final PeerRecord.Spec spec = new PeerRecord.Spec("sglang", null, PeerFile.text(n, "model_id"),
            PeerFile.text(n, "tokenizer_id"), null, PeerRecord.load(rate, concurrency == null ? null :
            concurrency.intValue(), null, duration),
            PeerRecord.counts(ok, 0, f.count(n, "total_output_tokens", at + "total_output_tokens"),
                f.count(n, "total_input_tokens", at + "total_input_tokens")),
            new ReportSection.Throughput(f.number(n, "request_throughput", at + "request_throughput"),
                f.number(n, "output_throughput", at + "output_throughput"),
                f.number(n, "input_throughput", at + "input_throughput")),
            samples == null ? reported : samples.distributions(), samples != null, PeerRecord.LINEAR);
        return new PeerRun("sglang", "sglang bench_serving --output-file (JSONL)", PeerRecord.of(spec, TIMING,
            duration), reported, DEFINITIONS, notes, samples == null ? null : samples.perRequest());
    }
}
