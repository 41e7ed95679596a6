package io.tokenclock.jmh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.telemetry.CommonFields;
import io.tokenclock.telemetry.EngineNames;
import io.tokenclock.telemetry.Exposition;
import io.tokenclock.telemetry.MetricsFetcher;
import io.tokenclock.telemetry.Scrape;
import io.tokenclock.telemetry.ScrapeLine;

/**
 * What one scrape of the server's {@code /metrics} costs the client, apart from the HTTP request itself: the work the
 * scraping thread ({@code telemetry.ServerMetricsScraper}) does once per interval, 1 s by default and 100 ms at the
 * fastest.
 * <p>
 * The page is {@link #VLLM_PAGE}: what a vLLM server with two data-parallel engines exports, built to the shape of
 * its documented metrics: the Python client's process and GC series, then per engine its gauges, counters (three
 * finish reasons), and twelve histograms of 12 to 23 buckets each, every line labelled with a 32-character model
 * name. About 580 lines and 64 KB; a real page is of this order (its size grows with engines, models and LoRA
 * adapters, linearly, and so does every cost here).
 * <ul>
 * <li>{@link #parse}: decode the bytes as UTF-8 and parse every line into samples (names, ordered label maps,
 * values) with the types and help texts: {@code telemetry.Exposition}.</li>
 * <li>{@link #parseAndMap}: the same, then the mapping to the common fields and the aggregation of the latency
 * histograms over label sets: {@code telemetry.EngineNames}.</li>
 * <li>{@link #parseMapAndWrite}: the same, then the {@code server_metrics.jsonl} line (every series written back with
 * its labels escaped), into a reused buffer: the whole per-scrape work but the socket.</li>
 * </ul>
 * Why it matters: it is not on the stamping path (its own thread, in the idle scheduling class), so it costs no
 * stamp any accuracy; what it costs is CPU and garbage on the client machine, which the event loops share. The
 * figure to compare is {@code parseMapAndWrite} per interval: at 100 µs per scrape and 1 s intervals, one
 * ten-thousandth of a core; at 100 ms, a thousandth. Unlike the per-chunk and per-request benchmarks this one
 * allocates by design (a String per name and label, a map per sample, the JSON line): its bound
 * ({@link AllocationBound}) keeps that from growing unnoticed. The run's own figure, measured on the thread itself,
 * is in {@code record.json} as {@code measurement.server_metrics.cpu_us_per_scrape}, with {@code bytes_per_scrape}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ServerMetricsBenchmark
{
    /** A vLLM page of two engines, about 64 KB. */
    static final byte[] VLLM_PAGE = vllmPage(2).getBytes(StandardCharsets.UTF_8);

    private static final JsonFactory JSON = new JsonFactory();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256 << 10);
    private final MetricsFetcher.Response response = new MetricsFetcher.Response(200, VLLM_PAGE);

    @Benchmark
    @AllocationBound(bytesPerOp = 1_200_000, why = "a String per name, label and value, a LinkedHashMap per " +
        "labelled sample, a Sample each, and the page decoded to a String: 813 KB/op measured for the 64 KB page " +
        "(Temurin 25)")
    public Scrape parse()
    {
        return Exposition.parse(VLLM_PAGE, 0, VLLM_PAGE.length);
    }

    @Benchmark
    @AllocationBound(bytesPerOp = 1_300_000, why = "parse, plus the samples grouped by name and the histograms " +
        "summed over label sets: 851 KB/op measured (Temurin 25)")
    public CommonFields parseAndMap()
    {
        return EngineNames.map(Exposition.parse(VLLM_PAGE, 0, VLLM_PAGE.length));
    }

    @Benchmark
    @AllocationBound(bytesPerOp = 1_800_000, why = "parseAndMap, plus each series' key rebuilt with its labels " +
        "escaped for the JSON line: 1,148 KB/op measured (Temurin 25)")
    public int parseMapAndWrite() throws IOException
    {
        final Scrape scrape = Exposition.parse(VLLM_PAGE, 0, VLLM_PAGE.length);
        final CommonFields fields = EngineNames.map(scrape);
        line.reset();
        try (JsonGenerator g = JSON.createGenerator(line))
        {
            ScrapeLine.write(g, 1, 2, response, null, scrape, fields, 0);
        }
        return line.size();
    }

    /** @return a vLLM-shaped exposition of {@code engines} data-parallel engines. */
    static String vllmPage(final int engines)
    {
        final StringBuilder sb = new StringBuilder(128 << 10);
        for (final String gen : new String[] {"0", "1", "2"})
        {
            sb.append("python_gc_objects_collected_total{generation=\"").append(gen).append("\"} 1204.0\n");
            sb.append("python_gc_collections_total{generation=\"").append(gen).append("\"} 310.0\n");
        }
        sb.append("process_virtual_memory_bytes 3.4359738368e+10\nprocess_resident_memory_bytes 2.147483648e+09\n")
            .append("process_cpu_seconds_total 5312.51\nprocess_open_fds 96.0\n");
        final String[] histograms = {"time_to_first_token_seconds", "inter_token_latency_seconds",
            "request_time_per_output_token_seconds", "e2e_request_latency_seconds", "request_queue_time_seconds",
            "request_inference_time_seconds", "request_prefill_time_seconds", "request_decode_time_seconds",
            "request_prompt_tokens", "request_generation_tokens", "iteration_tokens_total",
            "request_params_max_tokens"};
        for (int e = 0; e < engines; e++)
        {
            final String labels = "engine=\"" + e + "\",model_name=\"meta-llama/Llama-3.1-8B-Instruct-v2\"";
            for (final String gauge : new String[] {"num_requests_running", "num_requests_waiting",
                "kv_cache_usage_perc"})
            {
                sb.append("# TYPE vllm:").append(gauge).append(" gauge\nvllm:").append(gauge).append('{')
                    .append(labels).append("} 12.0\n");
            }
            for (final String counter : new String[] {"prompt_tokens_total", "generation_tokens_total",
                "prefix_cache_queries_total", "prefix_cache_hits_total", "num_preemptions_total"})
            {
                sb.append("vllm:").append(counter).append('{').append(labels).append("} 7.557572e+06\n");
            }
            for (final String reason : new String[] {"stop", "length", "abort"})
            {
                sb.append("vllm:request_success_total{").append(labels).append(",finished_reason=\"")
                    .append(reason).append("\"} 1041.0\n");
            }
            for (int h = 0; h < histograms.length; h++)
            {
                histogram(sb, "vllm:" + histograms[h], labels, 12 + h % 12);
            }
        }
        return sb.toString();
    }

    private static void histogram(final StringBuilder sb, final String name, final String labels, final int buckets)
    {
        sb.append("# HELP ").append(name).append(" Histogram of ").append(name).append(".\n# TYPE ").append(name)
            .append(" histogram\n");
        double bound = 0.001;
        for (int b = 0; b < buckets; b++)
        {
            sb.append(name).append("_bucket{").append(labels).append(",le=\"")
                .append(String.format(Locale.ROOT, "%.3f", bound)).append("\"} ").append(10.0 * b).append('\n');
            bound *= 2.5;
        }
        sb.append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(10.0 * buckets)
            .append('\n').append(name).append("_sum{").append(labels).append("} 812.25\n").append(name)
            .append("_count{").append(labels).append("} ").append(10.0 * buckets).append('\n');
    }
}
