package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code record} and {@code compare} print from a file reaches the terminal escaped, whichever field carried
 * it: a model id a server listed (kept in {@code record.json}, set beside another in {@code compare}), a record's
 * {@code partial_reason} and grade, AIPerf's {@code start_time}. Each field here holds an ESC sequence that retitles
 * the terminal (OSC 0), one that recolours it (CSI), a C1 control (U+009B, the one-byte CSI) and a line break;
 * no control character but the printer's own line feeds may come out, and a field keeps to its line.
 */
final class UntrustedFileTextTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTILE = "\u001b]0;pwned\u0007\u001b[31mred\u009b2J\nFORGED LINE\r";

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    private Path record(final String name, final String model) throws IOException
    {
        final ObjectNode r;
        try (InputStream in = getClass().getResourceAsStream("/io/tokenclock/report/golden/full-record.json"))
        {
            r = (ObjectNode)JSON.readTree(in);
        }
        r.put("partial", true).put("partial_reason", "interrupted " + HOSTILE);
        ((ObjectNode)r.path("model")).put("name", model);
        ((ObjectNode)r.path("grade")).putArray("missing").add("missing " + HOSTILE);
        final Path dir = Files.createDirectories(tmp.resolve(name));
        JSON.writeValue(dir.resolve("record.json").toFile(), r);
        return dir;
    }

    @Test
    void shouldEscapeARecordsPartialReasonGradeAndModelOnRecord() throws IOException
    {
        Main.execute("record", record("run", "model " + HOSTILE).toString());
        assertInert(console.out() + console.err());
        assertTrue(console.out().contains("PARTIAL RECORD: interrupted \\u001b]0;pwned\\u0007"), console.out());
        assertTrue(console.out().lines().noneMatch(l -> l.startsWith("FORGED")), "a field keeps to its line");
    }

    @Test
    void shouldEscapeAiperfsStartTimeOnRecord() throws IOException
    {
        final Path dir = Files.createDirectories(tmp.resolve("aiperf"));
        final ObjectNode n;
        try (InputStream in = getClass().getResourceAsStream(
            "/io/tokenclock/peers/aiperf/profile_export_aiperf.json"))
        {
            n = (ObjectNode)JSON.readTree(in);
        }
        n.put("start_time", "2025-10-17T20:22:08" + HOSTILE);
        JSON.writeValue(dir.resolve("profile_export_aiperf.json").toFile(), n);
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.resolve("profile_export_aiperf.json").toString()),
            console.err());
        assertInert(console.out() + console.err());
        assertTrue(console.out().contains("2025-10-17T20:22:08\\u001b]0;pwned"), console.out());
        assertTrue(console.out().lines().noneMatch(l -> l.startsWith("FORGED")), "a field keeps to its line");
    }

    @Test
    void shouldEscapeAModelIdFromTheServerOnCompare() throws IOException
    {
        final Path a = record("a", "m");
        final Path b = record("b", "m " + HOSTILE);
        Main.execute("compare", a.toString(), b.toString(), "--force", "--output", tmp.resolve("c.json").toString());
        assertTrue(console.out().contains("model.name"), "the difference is printed: " + console.out());
        assertInert(console.out() + console.err());
        assertTrue(console.out().lines().noneMatch(l -> l.startsWith("FORGED")), "a field keeps to its line");
    }

    /** No control character but a line feed: nothing that a terminal would act on. */
    private static void assertInert(final String printed)
    {
        final List<String> found = new ArrayList<>();
        printed.chars().filter(c -> c != '\n' && (c < 0x20 || (c >= 0x7f && c <= 0x9f)))
            .forEach(c -> found.add(String.format("U+%04X", c)));
        assertEquals(List.of(), found, "control characters printed raw:\n" + printed);
    }
}
