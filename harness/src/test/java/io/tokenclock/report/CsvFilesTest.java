package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CSV files round-trip: read back with a CSV parser, requests.csv holds every line of requests.jsonl under the
 * documented columns in their order, each cell the JSON value (an empty cell for null); summary.csv holds every
 * distribution of record.json, the run's and each segment's; sweep.csv every point of sweep.json.
 */
final class CsvFilesTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GOLDEN = "/io/tokenclock/report/golden/";

    @TempDir
    Path dir;

    private void copy(final String resource, final String name) throws IOException
    {
        try (InputStream in = CsvFilesTest.class.getResourceAsStream(GOLDEN + resource))
        {
            Files.write(dir.resolve(name), in.readAllBytes());
        }
    }

    private static List<List<String>> read(final Path file) throws IOException
    {
        final List<List<String>> rows = new ArrayList<>();
        try (MappingIterator<List<String>> it = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .readerForListOf(String.class).readValues(file.toFile()))
        {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    @Test
    void shouldRoundTripEveryRequestUnderTheDocumentedColumns() throws IOException
    {
        copy("requests.jsonl", "requests.jsonl");
        CsvFiles.writeRun(dir);
        final List<List<String>> rows = read(dir.resolve("requests.csv"));
        assertEquals(CsvFiles.REQUEST_COLUMNS, rows.get(0));
        final List<String> lines = Files.readAllLines(dir.resolve("requests.jsonl"));
        assertEquals(lines.size(), rows.size() - 1);
        for (int i = 0; i < lines.size(); i++)
        {
            final JsonNode json = JSON.readTree(lines.get(i));
            for (int c = 0; c < CsvFiles.REQUEST_COLUMNS.size(); c++)
            {
                final JsonNode v = json.path(CsvFiles.REQUEST_COLUMNS.get(c));
                assertEquals(v.isNull() || v.isMissingNode() ? "" : v.asText(), rows.get(i + 1).get(c),
                    CsvFiles.REQUEST_COLUMNS.get(c) + " of line " + (i + 1));
            }
        }
        assertTrue(rows.stream().anyMatch(r -> r.get(CsvFiles.REQUEST_COLUMNS.indexOf("ttft_ms")).isEmpty()),
            "a request without a first token has an empty ttft_ms");
    }

    @Test
    void shouldWriteEveryDistributionOfTheRunAndItsSegments() throws IOException
    {
        copy("full-record.json", "record.json");
        CsvFiles.writeRun(dir);
        final List<List<String>> rows = read(dir.resolve("summary.csv"));
        assertEquals(CsvFiles.SUMMARY_COLUMNS, rows.get(0));
        final JsonNode report = JSON.readTree(dir.resolve("record.json").toFile()).path("report");
        int expected = report.path("distributions").size();
        final Iterator<Map.Entry<String, JsonNode>> segments = report.path("segments").properties().iterator();
        while (segments.hasNext())
        {
            expected += segments.next().getValue().path("distributions").size();
        }
        assertEquals(expected, rows.size() - 1);
        final List<String> ttft = rows.stream().filter(r -> r.get(0).equals("run") && r.get(1).equals("ttft"))
            .findFirst().orElseThrow();
        final JsonNode d = report.path("distributions").path("ttft");
        assertEquals(d.path("p99").asText(), ttft.get(CsvFiles.SUMMARY_COLUMNS.indexOf("p99")));
        assertEquals(d.path("p99_ci95").get(0).asText(), ttft.get(CsvFiles.SUMMARY_COLUMNS.indexOf("p99_ci95_low")));
        assertEquals("", ttft.get(CsvFiles.SUMMARY_COLUMNS.indexOf("p99_ci95_high")), "no upper end: empty");
        assertTrue(rows.stream().anyMatch(r -> r.get(0).equals("segment:chat")));
    }

    @Test
    void shouldWriteEverySweepPoint() throws IOException
    {
        Files.writeString(dir.resolve("sweep.json"), """
            {"format": "tokenclock-sweep/1", "points": [
              {"offered": 2.0, "loop": "rate", "achieved_rps": 1.98, "ttft_p99_ms": 40.5, "goodput_rps": null,
               "run_dir": "points/01-rate-2"},
              {"offered": 4.0, "loop": "rate", "achieved_rps": 3.9, "ttft_p99_ms": 95.25, "run_dir": "points/02-rate-4"}
            ]}""");
        CsvFiles.writeSweep(dir);
        final List<List<String>> rows = read(dir.resolve("sweep.csv"));
        assertEquals(CsvFiles.SWEEP_COLUMNS, rows.get(0));
        assertEquals(3, rows.size());
        assertEquals("4.0", rows.get(2).get(0));
        assertEquals("95.25", rows.get(2).get(CsvFiles.SWEEP_COLUMNS.indexOf("ttft_p99_ms")));
        assertEquals("", rows.get(1).get(CsvFiles.SWEEP_COLUMNS.indexOf("goodput_rps")));
        assertEquals("points/01-rate-2", rows.get(1).get(CsvFiles.SWEEP_COLUMNS.indexOf("run_dir")));
    }
}
