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
    }

    @Test
    void shouldSayInOneLineWhenADirectoryHoldsNoResult()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> HtmlReport.write(List.of(dir), null, false));
        assertTrue(ex.getMessage().startsWith(dir + ": not a tokenclock result"), ex.getMessage());
    }
}
