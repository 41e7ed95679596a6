package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.accuracy.TruthScript;
import io.tokenclock.accuracy.TruthServer;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.PacketTap;

/**
 * A client whose stamping thread is starved on purpose says so: {@code tokenclock run} in a JVM of its own, frozen
 * with SIGSTOP for 30 ms every 150 ms (a child {@code kill} process sends each signal) while a truth server in this
 * JVM streams 2 ms apart. The chunks that arrive during a freeze wait in the socket, where the kernel merges them and
 * keeps one stamp: far more than 1 in 1,000 chunks take a later chunk's stamp, and the summary prints the one line
 * with the count, the worst receive delay and the remedy, and the record's grade drops. With the packet tap, the same
 * freezes leave the chunks their own arrivals, and the count falls. Asserts the line and the counts, never a speed.
 */
@Timeout(300)
@Tag("slow") // two JVMs of their own, frozen on purpose: skipped by -Pfast
final class StarvedStampingIT
{
    private static final String LINE = "took a later chunk's stamp";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** One frozen run: its console and its record. */
    private record Frozen(String console, JsonNode record, int freezes)
    {
        long sharedChunks()
        {
            return record.path("measurement").path("stamping").path("shared_stamp_chunks").path("shared").asLong();
        }
    }

    private Frozen frozenRun(final String name, final String packetTap) throws Exception
    {
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, 2, 400))
            .withIoThreads(1)))
        {
            final Path out = dir.resolve(name);
            final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.selfWarmup=false",
                "-Dtokenclock.tty=0", "-jar", "target/tokenclock.jar", "run", "--url", server.baseUrl(), "--model",
                "m", "--concurrency", "4", "--requests", "12", "--warmup-requests", "0", "--max-tokens", "400",
                "--ignore-eos", "--no-progress", "--server-metrics", "off", "--timeout", "60", "--packet-tap",
                packetTap, "--output-dir", out.toString()));
            final Path console = dir.resolve(name + ".txt");
            final Process client = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(console.toFile()).start();
            final AtomicInteger freezes = new AtomicInteger();
            final Thread freezer = new Thread(() -> freeze(client, freezes), "freezer");
            freezer.start();
            final boolean ended = client.waitFor(200, TimeUnit.SECONDS);
            freezer.interrupt();
            freezer.join();
            new ProcessBuilder("kill", "-CONT", Long.toString(client.pid())).start().waitFor();
            if (!ended)
            {
                client.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            final String said = Files.readString(console, StandardCharsets.UTF_8);
            assertTrue(ended, "the run ended: " + said);
            return new Frozen(said, JSON.readTree(out.resolve("record.json").toFile()), freezes.get());
        }
    }

    /** Stops {@code client} for 30 ms every 150 ms until it ends (or this thread is interrupted). */
    private static void freeze(final Process client, final AtomicInteger freezes)
    {
        final String pid = Long.toString(client.pid());
        try
        {
            while (client.isAlive())
            {
                Thread.sleep(120);
                new ProcessBuilder("kill", "-STOP", pid).start().waitFor();
                Thread.sleep(30);
                new ProcessBuilder("kill", "-CONT", pid).start().waitFor();
                freezes.incrementAndGet();
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        catch (final java.io.IOException e)
        {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldPrintTheOneLineAndDropTheGradeWhenAFrozenClientsChunksShareStamps() throws Exception
    {
        assumeTrue(KernelStamps.unavailableReason() == null, "StarvedStampingIT skipped: kernel stamps: " +
            KernelStamps.unavailableReason());
        final Frozen without = frozenRun("socket", "off");
        final List<String> lines = without.console().lines().filter(l -> l.contains(LINE)).toList();
        assertEquals(1, lines.size(), "one line: " + without.console());
        assertTrue(lines.get(0).startsWith("warning: ") && lines.get(0).contains("worst client receive delay") &&
            lines.get(0).contains("--packet-tap") && lines.get(0).contains("more cores"), lines.get(0));
        final JsonNode chunks = without.record().path("measurement").path("stamping").path("shared_stamp_chunks");
        assertTrue(chunks.path("compromised").asBoolean(), chunks.toString());
        assertTrue(without.sharedChunks() > 0.001 * chunks.path("chunks").asLong(), chunks.toString());
        assertEquals("local-debugging", without.record().path("grade").path("grade").asText());
        final List<String> missing = new ArrayList<>();
        without.record().path("grade").path("missing").forEach(n -> missing.add(n.asText()));
        assertEquals(1, missing.stream().filter(m -> m.startsWith("measurement.stamping: ") && m.contains(LINE))
            .count(), missing.toString());

        assumeTrue(PacketTap.unavailableReason("lo") == null, "the tap's half skipped: " +
            PacketTap.unavailableReason("lo"));
        final Frozen tapped = frozenRun("tap", "lo");
        System.out.printf("frozen client (%d and %d freezes of 30 ms): %d chunks shared a stamp without the tap, " +
            "%d with it (%d the tap saw arrive together)%n", without.freezes(), tapped.freezes(),
            without.sharedChunks(), tapped.sharedChunks(), tapped.record().path("measurement").path("stamping")
            .path("shared_stamp_chunks").path("arrived_together").asLong());
        // With the tap, chunks that shared a segment did arrive together (a late server writes back to back): they
        // are counted apart, and nothing the freezes merged is left to warn of.
        assertEquals(0, tapped.console().lines().filter(l -> l.contains(LINE)).count(), tapped.console());
        assertTrue(tapped.sharedChunks() < without.sharedChunks(), "the tap keeps the frozen chunks' own arrivals: " +
            tapped.sharedChunks() + " against " + without.sharedChunks());
    }
}
