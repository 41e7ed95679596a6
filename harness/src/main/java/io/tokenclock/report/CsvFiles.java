package io.tokenclock.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import io.tokenclock.json.Json;
import io.tokenclock.util.WholeFile;

/**
 * {@code requests.csv}, {@code summary.csv} and {@code sweep.csv}: the same figures as requests.jsonl, record.json
 * and sweep.json, for spreadsheets and pandas, written by Jackson's CSV dataformat (RFC 4180 quoting, a header row).
 * The columns are fixed, in the order of the lists below, and documented in docs/RESULTS.md; a value that is
 * undefined or absent is an empty cell. Columns are only ever added at the end. Each file is written whole (a
 * temporary file, then a rename), from the JSON files, so it can be written again for any run.
 */
public final class CsvFiles
{
    /** requests.csv: one row per line of requests.jsonl, the per-chunk arrays left out. */
    public static final List<String> REQUEST_COLUMNS = List.of("id", "phase", "status", "error", "http_status",
        "connection", "new_connection", "scheduled_ns", "submit_ns", "sent_ns", "headers_ns", "first_token_ns",
        "first_output_ns", "end_ns", "chunks", "input_tokens", "output_tokens", "token_count_source",
        "finish_reason", "done_marker", "late", "truncated", "retries_429", "success", "ttft_ms", "stream_setup_ms",
        "ttft_from_schedule_ms", "ttfot_ms", "ttst_ms", "tpot_ms", "e2e_ms", "e2e_from_schedule_ms", "send_lag_ms",
        "stale_connection_resends", "api", "cached_tokens", "usage_reasoning_tokens", "unknown_events", "inputs",
        "answer_items");
    /** summary.csv: one row per distribution of record.json, the run's then each segment's. */
    public static final List<String> SUMMARY_COLUMNS = List.of("scope", "metric", "unit", "count", "min", "mean",
        "stdev", "p50", "p90", "p95", "p99", "p99_9", "max", "p99_ci95_low", "p99_ci95_high", "p99_9_ci95_low",
        "p99_9_ci95_high");
    /** sweep.csv: one row per point of sweep.json. */
    public static final List<String> SWEEP_COLUMNS = List.of("offered", "loop", "achieved_rps", "ttft_p50_ms",
        "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms", "e2e_p99_ms", "output_tokens_per_s", "goodput_rps",
        "good_fraction", "samples", "ok", "errors", "cancelled", "queue_source", "running", "waiting", "in_flight",
        "energy_j_per_token", "run_dir", "e2e_p50_ms", "inputs_per_s", "input_tokens_per_s");

    private static final ObjectMapper JSON = Json.MAPPER;
    private static final CsvMapper CSV = new CsvMapper();

    private CsvFiles()
    {
    }

    /** Writes requests.csv and summary.csv of the run in {@code dir} (a file it lacks is skipped). */
    public static void writeRun(final Path dir) throws IOException
    {
        final Path jsonl = dir.resolve("requests.jsonl");
        if (Files.isRegularFile(jsonl))
        {
            write(dir.resolve("requests.csv"), REQUEST_COLUMNS, out ->
            {
                try (BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        if (!line.isBlank())
                        {
                            out.write(row(JSON.readTree(line), REQUEST_COLUMNS));
                        }
                    }
                }
            });
        }
        final Path record = dir.resolve("record.json");
        if (Files.isRegularFile(record))
        {
            final JsonNode report = JSON.readTree(record.toFile()).path("report");
            write(dir.resolve("summary.csv"), SUMMARY_COLUMNS, out ->
            {
                distributions(out, "run", report.path("distributions"));
                final Iterator<Map.Entry<String, JsonNode>> it = report.path("segments").properties().iterator();
                while (it.hasNext())
                {
                    final Map.Entry<String, JsonNode> e = it.next();
                    distributions(out, "segment:" + e.getKey(), e.getValue().path("distributions"));
                }
            });
        }
    }

    /** Writes sweep.csv beside {@code dir}'s sweep.json. */
    public static void writeSweep(final Path dir) throws IOException
    {
        final JsonNode sweep = JSON.readTree(dir.resolve("sweep.json").toFile());
        write(dir.resolve("sweep.csv"), SWEEP_COLUMNS, out ->
        {
            for (final JsonNode p : sweep.path("points"))
            {
                out.write(row(p, SWEEP_COLUMNS));
            }
        });
    }

    private static void distributions(final SequenceWriter out, final String scope, final JsonNode d)
        throws IOException
    {
        final Iterator<Map.Entry<String, JsonNode>> it = d.properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode n = e.getValue();
            final List<Object> row = new ArrayList<>(List.of(scope, e.getKey()));
            for (final String c : SUMMARY_COLUMNS.subList(2, 13))
            {
                row.add(cell(n.path(c)));
            }
            row.add(cell(n.path("p99_ci95").path(0)));
            row.add(cell(n.path("p99_ci95").path(1)));
            row.add(cell(n.path("p99_9_ci95").path(0)));
            row.add(cell(n.path("p99_9_ci95").path(1)));
            out.write(row);
        }
    }

    private static List<Object> row(final JsonNode n, final List<String> columns)
    {
        final List<Object> row = new ArrayList<>(columns.size());
        for (final String c : columns)
        {
            row.add(cell(n.path(c)));
        }
        return row;
    }

    /** @return the cell of a JSON value: its text, or null (an empty cell) when null or absent. */
    private static Object cell(final JsonNode v)
    {
        if (v.isMissingNode() || v.isNull())
        {
            return null;
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }

    private interface Rows
    {
        void write(SequenceWriter out) throws IOException;
    }

    private static void write(final Path file, final List<String> columns, final Rows rows) throws IOException
    {
        final CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        columns.forEach(schema::addColumn);
        WholeFile.write(file, stream ->
        {
            try (Writer w = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
                SequenceWriter out = CSV.writer(schema.build()).writeValues(w))
            {
                rows.write(out);
            }
        });
    }
}
