package io.tokenclock.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html as a file: self-contained (uPlot inlined, a policy that forbids every fetch, no external reference),
 * every value escaped so that none can end a script or inject markup, tables that carry the figures without
 * scripts, and overlays refused when the results' definitions differ. The browser test (ReportBrowserIT) draws it.
 */
final class HtmlReportTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTILE = "</script><script>alert(1)</script><img src=x>";

    @TempDir
    Path dir;

    private Path run(final String name, final String workloadHash) throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve(name));
        final ObjectNode record;
        try (InputStream in = HtmlReportTest.class.getResourceAsStream("/io/tokenclock/report/golden/full-record.json"))
        {
            record = (ObjectNode)JSON.readTree(in);
        }
        record.put("run_id", HOSTILE);
        ((ObjectNode)record.path("workload")).put("hash", workloadHash);
        // the record counts the requests of the requests.jsonl beside it (2 measured, 3 warm-up, ramp and cold), or
        // the run is refused as files of two results (results.RequestsFile)
        ((ObjectNode)record.path("report").path("counts")).put("measured", 2).put("warmup", 3);
        JSON.writeValue(run.resolve("record.json").toFile(), record);
        try (InputStream in = HtmlReportTest.class.getResourceAsStream("/io/tokenclock/report/golden/requests.jsonl"))
        {
            Files.write(run.resolve("requests.jsonl"), in.readAllBytes());
        }
        return run;
    }

    private static int count(final String page, final String needle)
    {
        int n = 0;
        for (int at = page.indexOf(needle); at >= 0; at = page.indexOf(needle, at + 1))
        {
            n++;
        }
        return n;
    }

    @Test
    void shouldWriteASelfContainedPageWhosePolicyForbidsEveryFetch() throws IOException
    {
        final Path file = HtmlReport.write(List.of(run("one", "abc")), null, false);
        assertEquals(dir.resolve("one").resolve("report.html"), file);
        final String page = Files.readString(file, StandardCharsets.UTF_8);
        final Matcher csp = Pattern.compile("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]+)\">")
            .matcher(page);
        assertTrue(csp.find(), "a policy in a meta tag");
        for (final String rule : List.of("default-src 'none'", "connect-src 'none'", "base-uri 'none'"))
        {
            assertTrue(csp.group(1).contains(rule), rule + " in " + csp.group(1));
        }
        assertFalse(csp.group(1).contains("'unsafe-inline'; img") && csp.group(1).contains("script-src 'unsafe"),
            "scripts are allowed by hash only");
        assertTrue(page.contains("leeoniya/uPlot (v" + Page.UPLOT_VERSION + ")"),
            "uPlot's own build inlined");
        assertTrue(page.contains("The MIT License"), "with its license");
        assertFalse(Pattern.compile("<(script|link|img|iframe)[^>]*\\s(src|href)=").matcher(page).find(),
            "nothing loaded from elsewhere");
    }

    @Test
    void shouldEscapeEveryValueSoThatNoneCanEndAScriptOrAddMarkup() throws IOException
    {
        final String page = Files.readString(HtmlReport.write(List.of(run("one", "abc")), null, false));
        assertEquals(3, count(page, "</script>"), "the data block, uPlot and the page's script: no other");
        assertFalse(page.contains("<img src=x>"), "the hostile run id never reaches the page as markup");
        assertTrue(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)"), "it is shown, escaped");
        final String data = page.substring(page.indexOf("id=\"report-data\">") + 17,
            page.indexOf("</script>", page.indexOf("id=\"report-data\">")));
        assertFalse(data.contains("<"), "no < inside the JSON block");
        JSON.readTree(data);
    }

    @Test
    void shouldCarryTheFiguresInPlainTablesForAReaderWithoutScripts() throws IOException
    {
        final String page = Files.readString(HtmlReport.write(List.of(run("one", "abc")), null, false));
        assertTrue(page.contains("<td>ttft</td><td>ms</td><td>200</td><td>48.250</td><td>45</td>"), "TTFT row");
        assertTrue(page.contains("<td>[88, none]</td>"), "the p99 interval, without an upper end");
        assertTrue(page.contains("<h3>Segment chat</h3>"));
        assertTrue(page.contains("GRADE: "), "the record block with its grade");
    }

    @Test
    void shouldLeadWithTheAnswerAndEndWithTheRecordAsATable() throws IOException
    {
        final String page = Files.readString(HtmlReport.write(List.of(run("one", "aa")), null, false));
        final int cards = page.indexOf("<div class=\"cards\">");
        final int answer = page.indexOf("<p class=\"answer\">");
        final int grade = page.indexOf("<p class=\"grade\">");
        final int overTime = page.indexOf("TTFT and ITL over time");
        final int percentiles = page.indexOf("<h2>Percentiles</h2>");
        final int record = page.indexOf("<h2 id=\"record\">");
        assertTrue(cards > 0 && cards < answer && answer < grade && grade < overTime && overTime < percentiles &&
            percentiles < record, "cards, sentence, grade, TTFT and ITL over time, percentiles ... the record last");
        for (final String card : List.of("requests/s", "output tokens/s", "TTFT p50", "TTFT p99", "TPOT p50",
            "TPOT p99", "errors"))
        {
            assertTrue(page.contains("<div class=\"card-title\">" + card + "</div>"), card);
        }
        assertTrue(page.contains("<a href=\"#record\">"), "the grade links to what is missing");
        assertTrue(page.contains("<table class=\"record\">") && page.contains("<tr class=\"section\"><th colspan=" +
            "\"2\">MODEL</th></tr>"), "the record block as a table, not monospace");
        assertFalse(page.contains("<pre>MODEL"), "no monospaced dump");
    }

    @Test
    void shouldDrawAnAbAsAForestPlotWithItsVerdictsColoured() throws IOException
    {
        final Path ab = Files.createDirectories(dir.resolve("ab"));
        for (final String side : List.of("A", "B"))
        {
            final Path rep = Files.createDirectories(ab.resolve(side).resolve("rep-1"));
            Files.copy(run("src-" + side, "aa").resolve("record.json"), rep.resolve("record.json"));
        }
        Files.writeString(ab.resolve("ab.json"), "{\"variants\": {\"A\": \"a.yaml\", \"B\": \"b.yaml\"}, " +
            "\"order\": [\"A\", \"B\"], \"figures\": {\"tpot_p99_ms\": {\"a\": [10.1, 12.3, 11.0], \"b\": " +
            "[9.2, 9.6, 8.1], \"mean_a\": 11.133, \"mean_b\": 8.967, \"difference\": -2.167, \"relative\": " +
            "-0.195, \"ci95\": [-3.4, -0.933], \"ci95_t\": [-4.435, 0.102], \"exceeds_noise\": false, " +
            "\"verdict\": \"n too small to tell\"}, \"e2e_p50_ms\": {\"a\": [10, 10.2, 10.1], \"b\": " +
            "[12, 12.1, 12.2], \"mean_a\": 10.1, \"mean_b\": 12.1, \"difference\": 2.0, \"relative\": 0.198, " +
            "\"ci95\": [1.9, 2.1], \"ci95_t\": [1.7, 2.3], \"exceeds_noise\": true, \"verdict\": " +
            "\"differs\"}}}");
        final String page = Files.readString(HtmlReport.write(List.of(ab), null, false));
        assertTrue(page.contains("<svg class=\"forest\""), "a forest plot");
        assertTrue(page.contains("<td class=\"v-too-few\">n too small to tell</td>") &&
            page.contains("<td class=\"v-differs\">differs</td>"), "verdicts coloured");
        assertTrue(page.contains("B differs from A in e2e_p50_ms; tpot_p99_ms moved, but 3 runs a side are too " +
            "few to tell"), "the answer in one sentence");
        assertFalse(page.contains("figure (numbered as in the table)"), "no line through unrelated metrics");
    }

    @Test
    void shouldSayBesideTwoRepetitionsIntervalThatItIsOnlyTheirRange() throws IOException
    {
        final Path reps = Files.createDirectories(dir.resolve("reps"));
        for (int k = 1; k <= 2; k++)
        {
            final Path rep = Files.createDirectories(reps.resolve("rep-" + k));
            Files.copy(run("src-" + k, "aa").resolve("record.json"), rep.resolve("record.json"));
        }
        Files.writeString(reps.resolve("repetitions.json"), "{\"repetitions\": 2, \"ci\": \"bootstrap\", " +
            "\"figures\": {\"requests_per_s\": {\"values\": [10, 11], \"mean\": 10.5, \"stdev\": 0.7, " +
            "\"cv\": 0.067, \"ci95\": [10, 11], \"ci95_is_range\": true, \"excluded_repetitions\": []}}}");
        final String page = Files.readString(HtmlReport.write(List.of(reps), null, false));
        assertTrue(page.contains("<td>[10, 11]</td><td>range</td>"), "the n = 2 interval marked as the range");
        assertFalse(page.contains("95% interval of the mean</th>"), "not called a 95% interval of the mean");
        assertTrue(page.contains("n is too small to tell more"), "said in the answer");
        assertTrue(page.contains("\"xint\":true"), "the repetition axis has whole-number ticks");
    }

    @Test
    void shouldRefuseToOverlayResultsOfDifferentWorkloadsUnlessForced() throws IOException
    {
        final Path a = run("a", "hash-1");
        final Path b = run("b", "hash-2");
        final Path out = dir.resolve("overlay.html");
        final HtmlReport.MismatchException ex = assertThrows(HtmlReport.MismatchException.class,
            () -> HtmlReport.write(List.of(a, b), out, false));
        assertTrue(ex.getMessage().contains("workload hash (workload.hash)"), ex.getMessage());
        assertFalse(Files.exists(out));
        HtmlReport.write(List.of(a, b), out, true);
        assertTrue(Files.readString(out).contains("differs (overlaid under --force): workload hash"));
    }

    @Test
    void shouldOverlayResultsOfTheSameDefinitions() throws IOException
    {
        final Path out = dir.resolve("overlay.html");
        HtmlReport.write(List.of(run("a", "same"), run("b", "same")), out, false);
        final String page = Files.readString(out);
        assertTrue(page.contains("Overlay of 2 results"));
        assertTrue(page.contains("\"label\":\"a\"") && page.contains("\"label\":\"b\""), "one line per result");
    }

    @Test
    void shouldReportAPeerToolsResultFileReadThroughItsImporter() throws IOException
    {
        final Path file = dir.resolve("vllm.json");
        try (InputStream in = HtmlReportTest.class.getResourceAsStream("/io/tokenclock/peers/vllm-save-result.json"))
        {
            Files.write(file, in.readAllBytes());
        }
        final Path out = dir.resolve("vllm.html");
        HtmlReport.write(List.of(file), out, false);
        final String page = Files.readString(out);
        assertTrue(page.contains("<h2>Imported from vllm.json</h2>"), "the imported kind");
        assertTrue(page.contains("<td>ttft</td>"), "its distributions, read into tokenclock's record");
        assertTrue(page.contains("<div class=\"cards\">"), "it leads with the answer, as a run does");
        final Matcher charts = Pattern.compile("data-charts=\"(\\d+)\"").matcher(page);
        assertTrue(charts.find() && Integer.parseInt(charts.group(1)) >= 4, "its per-request data drawn, as a " +
            "run's: the percentile plots and TTFT and ITL over time");
        assertTrue(page.contains("TTFT over time"), "start_times place the requests in time");
    }

    @Test
    void shouldSayInOneLineWhenADirectoryHoldsNoResult()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> HtmlReport.write(List.of(dir), null, false));
        assertTrue(ex.getMessage().startsWith(dir + ": not a tokenclock result"), ex.getMessage());
    }
}
