package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import javax.imageio.ImageIO;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;

/**
 * report.html in a real browser: Debian's Chromium, headless, with a fresh profile and background networking off,
 * driven over the DevTools protocol ({@link Cdp}). Every kind of result is made against the simulator (a run, a
 * second run, repetitions, a sweep, an A/B comparison, two shards merged) and reported, the two runs overlaid, and
 * two peer files imported: vLLM's fixture, and the first run's requests written out as {@code vllm bench serve
 * --save-result} would write them (ttfts, itls, start_times), which must draw as a run draws; each page must
 * load with no console error, no log error (a Content-Security-Policy violation is one), no uncaught exception and
 * no network request but its own file, and every chart must be drawn: a canvas in its element, and coloured
 * pixels (the series' strokes) inside its box on the screenshot. Every page must lead with the answer (its cards
 * or its sentence above the first chart). The screenshots go to results/report/ (browser-KIND.jpg, rewritten by
 * each run; the committed ones, report-KIND.jpg, are copies: results/report/README.md).
 * Skipped, saying how to install it, where /usr/bin/chromium is missing.
 */
@Timeout(600)
final class ReportBrowserIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SHOTS = Path.of("..", "results", "report");
    private static final int WIDTH = 1280;

    @TempDir
    static Path dir;

    private static CapturedConsole console;
    private static SimServer server;

    @BeforeAll
    static void makeResults() throws Exception
    {
        Assumptions.assumeTrue(Files.isExecutable(Cdp.CHROMIUM), "browser test skipped: /usr/bin/chromium is " +
            "missing (install it: apt-get update && apt-get install -y chromium)");
        console = CapturedConsole.started();
        server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(2).jitter(0.05));
        final String url = server.baseUrl();
        run("run", "--url", url, "--concurrency", "4", "--requests", "80", "--output-dir", path("one"));
        run("run", "--url", url, "--concurrency", "8", "--requests", "80", "--output-dir", path("two"));
        run("run", "--url", url, "--concurrency", "4", "--requests", "40", "--repetitions", "3", "--output-dir",
            path("reps"));
        run("sweep", "--url", url, "--rates", "20,40,80,160", "--point-duration", "1.5", "--no-search",
            "--slo-ttft-ms", "50", "--output-dir", path("sweep"));
        run("ab", contract("a", url, 4).toString(), contract("b", url, 16).toString(), "--repetitions", "2",
            "--output-dir", path("ab"));
        for (int i = 0; i < 2; i++)
        {
            run("run", "--url", url, "--rate", "30", "--duration", "2", "--shard", i + "/2", "--output-dir",
                path("shard-" + i));
        }
        assertEquals(Main.EXIT_OK, Main.execute("merge", path("merged"), path("shard-0"), path("shard-1")),
            console.err());
        assertEquals(Main.EXIT_OK, Main.execute("report", path("merged"), "--output", path("merged.html")),
            console.err());
        assertEquals(Main.EXIT_OK, Main.execute("report", path("one"), path("two"), "--output",
            path("overlay.html")), console.err());
        try (java.io.InputStream in = ReportBrowserIT.class.getResourceAsStream(
            "/io/tokenclock/peers/vllm-save-result.json"))
        {
            Files.write(dir.resolve("vllm.json"), in.readAllBytes());
        }
        assertEquals(Main.EXIT_OK, Main.execute("report", path("vllm.json"), "--output", path("imported.html")),
            console.err());
        Files.write(dir.resolve("vllm-run.json"), JSON.writeValueAsBytes(asVllm(dir.resolve("one"))));
        assertEquals(Main.EXIT_OK, Main.execute("report", path("vllm-run.json"), "--output",
            path("imported-requests.html")), console.err());
        assertEquals(Main.EXIT_INCOMPARABLE, Main.execute("report", path("one"), path("sweep"), "--output",
            path("refused.html")), "a closed loop and an open-loop sweep: compare's load-model rule");
        assertTrue(console.err().contains("load model"), console.err());
    }

    /**
     * @return run {@code dir}'s measured requests as {@code vllm bench serve --save-result} writes them: ttfts and
     * itls in seconds, start_times on a relative clock, output_lens, and the summary keys the importer needs.
     */
    private static ObjectNode asVllm(final Path run) throws IOException
    {
        final ObjectNode v = JSON.createObjectNode();
        final var ttfts = v.putArray("ttfts");
        final var itls = v.putArray("itls");
        final var starts = v.putArray("start_times");
        final var lens = v.putArray("output_lens");
        final var errors = v.putArray("errors");
        long first = Long.MAX_VALUE;
        long last = 0;
        int n = 0;
        long tokens = 0;
        final List<Double> ttftMs = new ArrayList<>();
        final List<Double> e2eMs = new ArrayList<>();
        for (final String line : Files.readAllLines(run.resolve("requests.jsonl")))
        {
            final JsonNode r = JSON.readTree(line);
            if (!"measure".equals(r.path("phase").asText()) || !"ok".equals(r.path("status").asText()))
            {
                continue;
            }
            final long sent = r.path("sent_ns").asLong();
            first = Math.min(first, sent);
            last = Math.max(last, r.path("end_ns").asLong());
            ttfts.add((r.path("first_token_ns").asLong() - sent) / 1e9);
            starts.add(sent / 1e9);
            final var gaps = itls.addArray();
            final JsonNode chunks = r.path("chunk_ns");
            for (int i = 1; i < chunks.size(); i++)
            {
                gaps.add((chunks.get(i).asLong() - chunks.get(i - 1).asLong()) / 1e9);
            }
            ttftMs.add(r.path("ttft_ms").asDouble());
            e2eMs.add(r.path("e2e_ms").asDouble());
            lens.add(r.path("output_tokens").asLong());
            tokens += r.path("output_tokens").asLong();
            errors.add("");
            n++;
        }
        final double duration = (last - first) / 1e9;
        v.put("backend", "openai-chat").put("model_id", "tokenclock-sim").put("num_prompts", n)
            .put("duration", duration).put("completed", n).put("failed", 0).put("total_input_tokens", 16L * n)
            .put("total_output_tokens", tokens).put("request_throughput", n / duration)
            .put("output_throughput", tokens / duration);
        summary(v, "ttft", ttftMs);
        summary(v, "e2el", e2eMs);
        return v;
    }

    /** Puts vLLM's mean_K_ms, median_K_ms and p99_K_ms of {@code values} (nearest rank: a fixture, not numpy). */
    private static void summary(final ObjectNode v, final String key, final List<Double> values)
    {
        final List<Double> sorted = values.stream().sorted().toList();
        v.put("mean_" + key + "_ms", sorted.stream().mapToDouble(Double::doubleValue).average().orElse(0))
            .put("median_" + key + "_ms", sorted.get(sorted.size() / 2))
            .put("p99_" + key + "_ms", sorted.get((int)Math.ceil(0.99 * sorted.size()) - 1));
    }

    private static String path(final String name)
    {
        return dir.resolve(name).toString();
    }

    private static void run(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of(args));
        if (!args[0].equals("ab"))
        {
            all.addAll(List.of("--max-tokens", "12", "--ignore-eos", "--input-tokens", "16", "--no-progress",
                "--warmup-requests", "4", "--server-metrics-interval-ms", "250"));
        }
        assertEquals(Main.EXIT_OK, Main.execute(all.toArray(String[]::new)), console.err());
    }

    private static Path contract(final String name, final String url, final int maxTokens) throws IOException
    {
        final Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, """
            target: {url: %s}
            model: {name: m, decoding: {max_tokens: %d, ignore_eos: true}}
            workload: {input_tokens: {dist: fixed, value: 16}}
            load: {mode: closed, concurrency: 2, requests: 16}
            state: {warmup: {requests: 2}}
            """.formatted(url, maxTokens));
        return file;
    }

    @AfterAll
    static void stop()
    {
        if (server != null)
        {
            server.close();
        }
        if (console != null)
        {
            console.restore();
        }
    }

    @Test
    void shouldDrawEveryKindOfResultWithNoConsoleErrorAndNoNetworkRequest() throws Exception
    {
        Files.createDirectories(SHOTS);
        try (Cdp cdp = Cdp.launch(Files.createDirectories(dir.resolve("profile")), WIDTH, 1000))
        {
            for (final String domain : List.of("Page", "Runtime", "Log", "Network"))
            {
                cdp.call(domain + ".enable", null);
            }
            check(cdp, dir.resolve("one").resolve("report.html"), "run", 10);
            check(cdp, dir.resolve("reps").resolve("report.html"), "repetitions", 10);
            check(cdp, dir.resolve("sweep").resolve("report.html"), "sweep", 5);
            check(cdp, dir.resolve("ab").resolve("report.html"), "ab", 4);
            check(cdp, dir.resolve("merged.html"), "merged", 10);
            check(cdp, dir.resolve("overlay.html"), "overlay", 4);
            check(cdp, dir.resolve("imported.html"), "imported", 4);
            check(cdp, dir.resolve("imported-requests.html"), "peer-file", 6);
        }
    }

    /** Loads one report and asserts it drew at least {@code minCharts} charts cleanly; saves its screenshot. */
    private static void check(final Cdp cdp, final Path file, final String name, final int minCharts)
        throws Exception
    {
        assertTrue(Files.isRegularFile(file), file + " written");
        final String url = file.toAbsolutePath().normalize().toUri().toString();
        cdp.drainEvents();
        cdp.call("Page.navigate", Cdp.params().put("url", url));
        cdp.await("Page.loadEventFired");
        final JsonNode status = JSON.readTree(cdp.eval("JSON.stringify(document.getElementById('report-status')" +
            ".dataset)").asText());
        final List<JsonNode> events = cdp.drainEvents();
        assertClean(name, url, events);
        assertEquals("0", status.path("errors").asText(), name + ": " + status);
        assertEquals(status.path("charts").asText(), status.path("drawn").asText(), name + ": " + status);
        assertTrue(cdp.eval("(() => { const lead = document.querySelector('.cards, p.answer'); const chart = " +
            "document.querySelector('.chart, svg'); return !!lead && (!chart || (lead.compareDocumentPosition(" +
            "chart) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0); })()").asBoolean(), name + ": leads with the answer");
        assertTrue(status.path("charts").asInt() >= minCharts, name + ": " + status);
        final JsonNode charts = JSON.readTree(cdp.eval("JSON.stringify(Array.from(document.querySelectorAll(" +
            "'.chart')).map(e => { const c = e.querySelector('canvas'); const r = (c || e).getBoundingClientRect(); " +
            "return {id: e.id, drawn: e.dataset.drawn, canvas: !!c && c.width > 0, x: r.left + scrollX, " +
            "y: r.top + scrollY, w: r.width, h: r.height}; }))").asText());
        assertEquals(status.path("charts").asInt(), charts.size(), name);
        final BufferedImage page = screenshot(cdp, name);
        for (final JsonNode c : charts)
        {
            assertEquals("1", c.path("drawn").asText(), name + " " + c);
            assertTrue(c.path("canvas").asBoolean(), name + " " + c);
            final int coloured = coloured(page, c);
            assertTrue(coloured > 50, name + " " + c.path("id").asText() + ": only " + coloured +
                " coloured pixels: no series drawn");
        }
    }

    /** No console error or assertion, no log error, no exception, and no request but the page itself. */
    private static void assertClean(final String name, final String url, final List<JsonNode> events)
    {
        final List<String> problems = new ArrayList<>();
        for (final JsonNode e : events)
        {
            final String method = e.path("method").asText();
            final JsonNode p = e.path("params");
            if (method.equals("Runtime.exceptionThrown") || method.equals("Runtime.consoleAPICalled") &&
                List.of("error", "assert").contains(p.path("type").asText()) || method.equals("Log.entryAdded") &&
                p.path("entry").path("level").asText().equals("error"))
            {
                problems.add(method + ": " + p);
            }
            if (method.equals("Network.requestWillBeSent") && !p.path("request").path("url").asText().equals(url))
            {
                problems.add("network request: " + p.path("request").path("url").asText());
            }
        }
        assertEquals(List.of(), problems, name);
        assertTrue(events.stream().anyMatch(e -> e.path("method").asText().equals("Network.requestWillBeSent")),
            name + ": the network domain saw the page's own load, so it was listening");
    }

    private static BufferedImage screenshot(final Cdp cdp, final String name) throws Exception
    {
        final JsonNode size = JSON.readTree(cdp.eval("JSON.stringify([document.documentElement.scrollWidth, " +
            "document.documentElement.scrollHeight])").asText());
        final ObjectNode clip = Cdp.params().put("x", 0).put("y", 0).put("width", size.get(0).asInt())
            .put("height", size.get(1).asInt()).put("scale", 1);
        final ObjectNode params = Cdp.params().put("format", "png").put("captureBeyondViewport", true);
        params.set("clip", clip);
        final byte[] png = Base64.getDecoder().decode(cdp.call("Page.captureScreenshot", params).path("data")
            .asText());
        final BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        keep(image, name);
        return image;
    }

    /** Keeps the page as a JPEG (a tenth of the PNG's size) under results/report/. */
    private static void keep(final BufferedImage image, final String name) throws IOException
    {
        final BufferedImage rgb = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
        rgb.createGraphics().drawImage(image, 0, 0, null);
        ImageIO.write(rgb, "jpg", SHOTS.resolve("browser-" + name + ".jpg").toFile());
    }

    /** @return the pixels inside the chart's box whose colour is saturated: the series, not axes, grid or text. */
    private static int coloured(final BufferedImage page, final JsonNode c)
    {
        int n = 0;
        final int x0 = Math.max(0, c.path("x").asInt());
        final int y0 = Math.max(0, c.path("y").asInt());
        final int x1 = Math.min(page.getWidth(), x0 + c.path("w").asInt());
        final int y1 = Math.min(page.getHeight(), y0 + c.path("h").asInt());
        for (int y = y0; y < y1; y++)
        {
            for (int x = x0; x < x1; x++)
            {
                final int rgb = page.getRGB(x, y);
                final int r = (rgb >> 16) & 0xff;
                final int g = (rgb >> 8) & 0xff;
                final int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60)
                {
                    n++;
                }
            }
        }
        return n;
    }
}
