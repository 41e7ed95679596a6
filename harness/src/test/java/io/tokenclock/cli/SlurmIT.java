package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.metrics.Metric;
import io.tokenclock.report.HistogramLogs;

/**
 * The sharded run end to end on a real Slurm: {@code slurm render} writes the job, {@code sbatch --wait} runs it as
 * a 4-task array against the simulator on loopback, the script's merge step merges it, and the merged result is
 * compared with a single-process run of the same contract: the same workload and schedule hashes, the same request
 * count, histograms that are the histograms of every shard's requests, and percentiles within run-to-run noise.
 * Skipped, saying how to enable it, where {@code sbatch} does not answer.
 */
@Timeout(900)
final class SlurmIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SHARDS = 4;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    @Test
    void shouldMergeAFourShardSlurmArrayIntoTheSingleProcessRun() throws Exception
    {
        assumeTrue(slurmAnswers(), "SlurmIT skipped: sbatch/sinfo do not answer here; to enable it, as root: " +
            "scripts/slurm-local start --install");
        final Path launcher = jarLauncher();
        try (SimServer sim = SimServer.start(new SimConfig().prefillBaseMs(10).decodeBaseMs(4).jitter(0.02)))
        {
            final List<String> runArgs = List.of("--url", "http://127.0.0.1:" + sim.port() + "/v1", "--rate", "16",
                "--duration", "5", "--max-tokens", "12", "--no-self-warmup", "--seed", "7");
            final Path out = tmp.resolve("slurm");
            Files.createDirectories(out);
            final Path job = render(out, launcher, runArgs);
            final String startAt = Instant.now().plus(90, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS)
                .toString();
            assertEquals(0, sbatch(List.of("sbatch", "--wait", job.toString()), startAt), "the array");
            assertEquals(0, sbatch(List.of("sbatch", "--wait", "--array=0", "--export=ALL,TOKENCLOCK_STEP=merge",
                job.toString()), startAt), "the merge step");
            // The merge step submitted again (as after a late shard's re-run) replaces the merged result it made.
            assertEquals(0, sbatch(List.of("sbatch", "--wait", "--array=0", "--export=ALL,TOKENCLOCK_STEP=merge",
                job.toString()), startAt), "the merge step again");
            final List<String> single = new ArrayList<>(runArgs);
            single.addAll(List.of("--output-dir", tmp.resolve("single").toString(), "--no-progress"));
            assertEquals(Main.EXIT_OK, runSingle(single), console.err());
            compare(out, tmp.resolve("single"));
        }
    }

    private int runSingle(final List<String> args)
    {
        final List<String> all = new ArrayList<>();
        all.add("run");
        all.addAll(args);
        return Main.execute(all.toArray(String[]::new));
    }

    private void compare(final Path out, final Path singleDir) throws IOException
    {
        final JsonNode merged = JSON.readTree(out.resolve("merged/record.json").toFile());
        final JsonNode single = JSON.readTree(singleDir.resolve("record.json").toFile());
        assertEquals("merged", merged.path("kind").asText());
        assertFalse(merged.path("partial").asBoolean(), merged.path("partial_reason").asText());
        assertEquals(single.path("workload").path("hash").asText(), merged.path("workload").path("hash").asText(),
            "the workload hash of the single process");
        assertEquals(single.path("load").path("schedule_hash").asText(),
            merged.path("load").path("schedule_hash").asText(), "the schedule hash of the single process");
        assertEquals(single.path("report").path("counts").path("measured").asLong(),
            merged.path("report").path("counts").path("measured").asLong(), "the request count");
        final Histogram e2e = HistogramLogs.read(out.resolve("merged"), Metric.E2E);
        final Histogram fromLines = fromRequests(out, "e2e_ms");
        assertEquals(fromLines.getTotalCount(), e2e.getTotalCount(), "every shard's ok request, once");
        for (final double q : new double[] {50, 90, 99, 100})
        {
            assertEquals(fromLines.getValueAtPercentile(q), e2e.getValueAtPercentile(q),
                fromLines.getValueAtPercentile(q) * 2e-3, "p" + q + " of all shards' samples (jsonl keeps us)");
        }
        // Percentiles are compared in results/shards (a quiet machine, warmed clients): here four cold shard JVMs
        // share the test machine's cores with the test, so their client-side latency is not the single process's.
        System.out.printf("SlurmIT: e2e p50 single %.1f ms, merged %.1f ms%n",
            single.path("report").path("distributions").path("e2e").path("p50").asDouble(),
            merged.path("report").path("distributions").path("e2e").path("p50").asDouble());
    }

    /**
     * @return a script that runs the jar this build made, as the launcher does but without its rebuild check: four
     * tasks must not each start a build when a source is newer than the jar.
     */
    private Path jarLauncher() throws IOException
    {
        final Path jar = Path.of("target", "tokenclock.jar").toAbsolutePath();
        assumeTrue(Files.isReadable(jar), "SlurmIT skipped: no " + jar + " (run it through mvn verify)");
        final Path script = tmp.resolve("tokenclock");
        Files.writeString(script, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") +
            "' '" + System.getProperty("tokenclock.jvmFlags") + "' -jar '" + jar + "' \"$@\"\n",
            StandardCharsets.UTF_8);
        script.toFile().setExecutable(true);
        return script;
    }

    /** @return the histogram of {@code field} over every shard's measured ok requests, rebuilt from requests.jsonl. */
    private static Histogram fromRequests(final Path out, final String field) throws IOException
    {
        final Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
        for (int i = 0; i < SHARDS; i++)
        {
            for (final String line : Files.readAllLines(out.resolve("shard-" + i + "/requests.jsonl")))
            {
                final JsonNode n = JSON.readTree(line);
                if (n.path("phase").asText().equals("measure") && n.path("status").asText().equals("ok") &&
                    n.hasNonNull(field))
                {
                    h.recordValue(Math.round(n.get(field).asDouble() * 1e6));
                }
            }
        }
        return h;
    }

    private Path render(final Path out, final Path launcher, final List<String> runArgs) throws IOException
    {
        final List<String> args = new ArrayList<>(List.of("slurm", "render", "--shards", String.valueOf(SHARDS),
            "--output-dir", out.toString(), "--name", "tokenclock-it", "--tokenclock", launcher.toString(), "--"));
        args.addAll(runArgs);
        console.start();
        assertEquals(Main.EXIT_OK, Main.execute(args.toArray(String[]::new)), console.err());
        final Path job = tmp.resolve("job.sh");
        Files.writeString(job, console.out(), StandardCharsets.UTF_8);
        return job;
    }

    private static int sbatch(final List<String> command, final String startAt) throws Exception
    {
        final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("START_AT", startAt);
        final Process p = pb.start();
        p.getOutputStream().close();
        final String output;
        if (!p.waitFor(600, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            throw new AssertionError(command + " did not end within 600 s");
        }
        output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(output.contains("Submitted batch job"), output);
        return p.exitValue();
    }

    private static boolean slurmAnswers()
    {
        try
        {
            final Process p = new ProcessBuilder("sinfo", "-h", "-o", "%t").redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                return false;
            }
            final String states = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.exitValue() == 0 && states.matches("(?s).*(idle|mix|alloc).*");
        }
        catch (final IOException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
