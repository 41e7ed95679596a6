package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.export.LlmdSchema;
import io.tokenclock.json.Json;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;

/** {@code export}: where the reports go, how several are named, and bad usage as one line and exit 2. */
final class ExportCommandTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden",
        "full-record.json");
    private static final Path PEERS = Path.of("src", "test", "resources", "io", "tokenclock", "peers");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    private Path run(final Path at) throws IOException
    {
        Files.createDirectories(at);
        Files.copy(GOLDEN, at.resolve("record.json"));
        return at;
    }

    private Path sweep() throws IOException
    {
        final Path sweep = dir.resolve("sweep");
        run(sweep.resolve("p1"));
        run(sweep.resolve("p2"));
        Index.write(sweep, Kind.SWEEP, List.of(new Index.Member("p1", "point 1"), new Index.Member("p2", "point 2")));
        return sweep;
    }

    @Test
    void shouldPrintOneValidReportPerLineWithoutOutput() throws IOException
    {
        assertEquals(Main.EXIT_OK, Main.execute("export", "--format", "llmd-report", sweep().toString()),
            console.err());
        final List<String> lines = console.out().lines().toList();
        assertEquals(2, lines.size(), console.out());
        for (final String line : lines)
        {
            final JsonNode report = Json.MAPPER.readTree(line);
            assertEquals(List.of(), LlmdSchema.errors(report));
        }
    }

    @Test
    void shouldWriteOneReportToTheFileNamedAndSayWhere() throws IOException
    {
        final Path out = dir.resolve("br.json");
        assertEquals(Main.EXIT_OK, Main.execute("export", "--format", "llmd-report",
            PEERS.resolve("vllm-save-result.json").toString(), "--output", out.toString()), console.err());
        assertEquals("export: " + out.toAbsolutePath().normalize() + "\n", console.out());
        final JsonNode report = Json.MAPPER.readTree(out.toFile());
        assertEquals(List.of(), LlmdSchema.errors(report));
        assertEquals("vllm-benchmark", report.path("scenario").path("load").path("standardized").path("tool")
            .asText());
    }

    @Test
    void shouldNameSeveralReportsWithTheirIndexBeforeTheExtension() throws IOException
    {
        final Path out = dir.resolve("br.json");
        assertEquals(Main.EXIT_OK, Main.execute("export", "--format", "llmd-report", sweep().toString(),
            "--output", out.toString()), console.err());
        assertFalse(Files.exists(out));
        for (int k = 0; k < 2; k++)
        {
            final Path file = dir.resolve("br_" + k + ".json");
            assertEquals(k, Json.MAPPER.readTree(file.toFile()).path("scenario").path("load").path("standardized")
                .path("stage").asInt());
            assertTrue(console.out().contains(file.toAbsolutePath().normalize() + " (point " + (k + 1) + ")"),
                console.out());
        }
        assertEquals(List.of(dir.resolve("a_0"), dir.resolve("a_1")), ExportCommand.files(dir.resolve("a"), 2));
    }

    @Test
    void shouldRefuseAnUnknownFormatWithOneLine() throws IOException
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("export", "--format", "csv", run(dir.resolve("one")).toString()));
        assertEquals(1, console.err().lines().count(), console.err());
        assertTrue(console.err().contains("--format: expected llmd-report, got 'csv'"), console.err());
        assertEquals("", console.out());
    }

    @Test
    void shouldRefuseWhatIsNoResultAndAnOutputThatIsNoFileWithOneLine() throws IOException
    {
        final Path notes = Files.writeString(dir.resolve("notes.txt"), "not a result");
        assertEquals(Main.EXIT_USAGE, Main.execute("export", "--format", "llmd-report", notes.toString()));
        assertEquals(1, console.err().lines().count(), console.err());
        assertTrue(console.err().startsWith("tokenclock: " + notes + ": not a result"), console.err());
        console.resetErr();
        assertEquals(Main.EXIT_USAGE, Main.execute("export", "--format", "llmd-report",
            run(dir.resolve("one")).toString(), "--output", dir.toString()));
        assertTrue(console.err().contains("a directory; name a file"), console.err());
        console.resetErr();
        assertEquals(Main.EXIT_USAGE, Main.execute("export", "--format", "llmd-report",
            dir.resolve("one").toString(), "--output", dir.resolve("missing").resolve("br.json").toString()));
        assertTrue(console.err().contains("no such directory"), console.err());
        assertEquals("", console.out());
    }
}
