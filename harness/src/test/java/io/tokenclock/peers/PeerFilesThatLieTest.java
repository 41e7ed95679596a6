package io.tokenclock.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peer files that are not what they claim (issue 40): each is one line naming the file, the line where there is
 * one, the field and what was expected; never a figure computed from it (a p99 of 9223372036854.775 ms was printed
 * for a {@code 1e308} before).
 */
final class PeerFilesThatLieTest
{
    private static final Path VLLM = PeersTest.DIR.resolve("vllm-save-result.json");

    @TempDir
    Path tmp;

    private Path vllm(final String from, final String to) throws IOException
    {
        final String text = Files.readString(VLLM);
        assertTrue(text.contains(from), from);
        final Path p = tmp.resolve("vllm.json");
        Files.writeString(p, text.replace(from, to));
        return p;
    }

    private static String refused(final Path p)
    {
        final PeerFormatException ex = assertThrows(PeerFormatException.class, () -> Peers.read(p));
        assertFalse(ex.getMessage().contains("\n"), "one line: " + ex.getMessage());
        assertTrue(ex.getMessage().startsWith(p.toString()), "names the file: " + ex.getMessage());
        return ex.getMessage();
    }

    @Test
    void shouldRefuseNanInfinityAndHugeValuesInPerRequestArrays() throws IOException
    {
        for (final String bad : List.of("NaN", "Infinity", "-Infinity", "1e308"))
        {
            assertTrue(refused(vllm("\"ttfts\": [0.1, 0.2", "\"ttfts\": [0.1, " + bad))
                .endsWith(": field ttfts[1]: expected a time from 0 to 11.6 days (1e9 ms), got " +
                    (bad.equals("1e308") ? "1.0E308" : bad)), bad);
            assertTrue(refused(vllm("[[0.01, 0.01, 0.01]", "[[0.01, " + bad + ", 0.01]"))
                .contains(": field itls[0][1]: expected a time from 0 to 11.6 days"), bad);
        }
    }

    @Test
    void shouldRefuseANegativeTime() throws IOException
    {
        assertTrue(refused(vllm("[[0.01, 0.01, 0.01]", "[[0.01, -0.01, 0.01]"))
            .endsWith("field itls[0][1]: expected a time from 0 to 11.6 days (1e9 ms), got -0.01"));
        assertTrue(refused(vllm("\"mean_ttft_ms\": 200.0", "\"mean_ttft_ms\": -200.0"))
            .endsWith("field mean_ttft_ms: expected a time from 0, got -200.0"));
    }

    @Test
    void shouldRefuseArraysOfInconsistentLengths() throws IOException
    {
        assertTrue(refused(vllm("[0.01], []]", "[0.01]]"))
            .endsWith("field itls: expected 4 entries, one per request as in ttfts, got 3"));
        assertTrue(refused(vllm("\"output_lens\": [4, 3, 2, 0]", "\"output_lens\": [4, 3, 2, 0, 1]"))
            .endsWith("field output_lens: expected 4 entries, one per request as in ttfts, got 5"));
        assertTrue(refused(vllm("\"completed\": 3", "\"completed\": 30"))
            .endsWith("field ttfts: expected an entry for each of the 31 requests its summary counts, got 4"));
    }

    @Test
    void shouldRefuseUnitsThatContradictTheFilesOwnSummary() throws IOException
    {
        // ttfts in ms where vLLM writes seconds: the arrays' mean is 1000 times its mean_ttft_ms
        assertTrue(refused(vllm("\"ttfts\": [0.1, 0.2, 0.3, 0.0]", "\"ttfts\": [100, 200, 300, 0]"))
            .endsWith("field ttfts: expected values in seconds, as its mean_ttft_ms says (a mean of 200.000 ms), " +
                "got values whose mean is 200000.000 ms"));
    }

    @Test
    void shouldRefuseAnAiperfMetricWithoutAUnit() throws IOException
    {
        final Path dir = Files.createDirectories(tmp.resolve("aiperf"));
        final Path file = dir.resolve(Aiperf.FILE);
        Files.writeString(file, Files.readString(RealPeerFilesTest.AIPERF_2026.resolve(Aiperf.FILE))
            .replaceFirst("\"unit\": \"ms\",", ""));
        assertTrue(refused(dir).contains(": field request_latency.unit: expected a unit of time (ns, us, ms, s, " +
            "sec), got nothing"));
    }

    @Test
    void shouldNameTheLineOfAnAiperfRecordThatLies() throws IOException
    {
        final Path dir = Files.createDirectories(tmp.resolve("aiperf"));
        for (final String f : List.of(Aiperf.FILE, Aiperf.REQUESTS))
        {
            Files.copy(RealPeerFilesTest.AIPERF_2025.resolve(f), dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        final List<String> lines = Files.readAllLines(dir.resolve(Aiperf.REQUESTS));
        lines.set(19, lines.get(19).replace("\"ttft\":{\"value\":730.147344", "\"ttft\":{\"value\":NaN"));
        Files.write(dir.resolve(Aiperf.REQUESTS), lines);
        final String line = assertThrows(PeerFormatException.class, () -> Peers.read(dir)).getMessage();
        assertTrue(line.endsWith(Aiperf.REQUESTS + ": line 20: field metrics.ttft.value: expected a finite " +
            "number, got NaN"), line);
    }

    @Test
    void shouldNameTheLineWhereAFileIsCutShort() throws IOException
    {
        final String text = Files.readString(VLLM);
        final Path p = tmp.resolve("cut.json");
        Files.writeString(p, text.substring(0, text.indexOf("\"itls\"") + 20));
        assertTrue(refused(p).endsWith(": line 7: expected JSON, got the end of the file inside a value (cut short?)"),
            refused(p));
        final Path jsonl = tmp.resolve("cut.jsonl");
        final List<String> lines = Files.readAllLines(RealPeerFilesTest.VLLM_APPEND);
        Files.writeString(jsonl, String.join("\n", lines.subList(0, 4)) + "\n" + lines.get(4).substring(0, 99));
        assertTrue(refused(jsonl).contains(": line 5: expected JSON, got the end of the file"), refused(jsonl));
    }

    @Test
    void shouldRefuseALineInAnotherShapeThanTheFirst() throws IOException
    {
        final Path jsonl = tmp.resolve("mixed.jsonl");
        Files.writeString(jsonl, Files.readAllLines(RealPeerFilesTest.VLLM_APPEND).get(0) + "\n{\"completed\": 1}\n");
        assertTrue(refused(jsonl).endsWith(": line 2: expected a vLLM bench serve result, as the first line is"));
    }

    @Test
    void shouldReadVllmsInfRateAsABurstWhereverItStands() throws IOException
    {
        final PeerRun r = Peers.read(vllm("\"request_rate\": 2.0", "\"request_rate\": \"inf\"")).get(0);
        assertEquals("burst", r.record().load().mode());
        assertTrue(refused(vllm("\"request_rate\": 2.0", "\"request_rate\": \"fast\""))
            .endsWith("field request_rate: expected a number, got \"fast\""));
    }
}
