package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.ShardSpec;
import io.tokenclock.load.Stripe;
import io.tokenclock.merge.SyntheticShards;

/**
 * The shard flags' and merge's bad input: one line and exit 2, before any request. The environment cases go
 * through {@link ShardFlags#toSpec} with a given environment, since a test cannot set its own.
 */
final class ShardCommandTest
{
    /** Nothing listens there, and nothing is sent: every case fails before the probe. */
    private static final String URL = "http://127.0.0.1:9/v1";

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    @Test
    void shouldRefuseAnIndexOutOfRangeWithOneLine()
    {
        assertUsage("--shard 4/4: shard index 4 is out of range 0..3", "run", "--url", URL, "--rate", "2",
            "--duration", "1", "--shard", "4/4");
    }

    @Test
    void shouldRefuseAStartTimeInThePastWithOneLine()
    {
        assertUsage("--start-at 2000-01-01T00:00:00Z is in the past", "run", "--url", URL, "--rate", "2",
            "--duration", "1", "--shard", "0/2", "--start-at", "2000-01-01T00:00:00Z");
    }

    @Test
    void shouldRefuseAClosedLoopWithFewerStreamsThanShards()
    {
        assertUsage("--concurrency 3 is below the shard count 4", "run", "--url", URL, "--concurrency", "3",
            "--requests", "10", "--shard", "1/4");
    }

    @Test
    void shouldRefuseMergingShardsOfDifferentContractsWithOneLine() throws IOException
    {
        final Path a = new SyntheticShards(1).write(tmp.resolve("a"), 0, 2, 5, 0);
        final SyntheticShards other = new SyntheticShards(1);
        other.rate = 9.0;
        final Path b = other.write(tmp.resolve("b"), 1, 2, 5, 0);
        assertUsage("their contracts differ at load.rate_per_s (4.0 vs 9.0)", "merge", tmp.resolve("m").toString(),
            a.toString(), b.toString());
    }

    @Test
    void shouldRefuseShardsWithoutAnIndexVariableOrWithAnotherCount()
    {
        final ShardFlags flags = new ShardFlags();
        flags.shards = 4;
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
            () -> flags.toSpec(Map.of(), Instant.now()));
        assertEquals("--shards 4 reads the shard index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and " +
            "neither is set: give --shard I/4 instead", none.getMessage());
        final IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
            () -> flags.toSpec(Map.of("SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "3"), Instant.now()));
        assertEquals("--shards 4 differs from the environment's shard count (SLURM_ARRAY_TASK_COUNT=3)",
            count.getMessage());
        assertEquals(new Stripe(2, 4), flags.toSpec(Map.of("JOB_COMPLETION_INDEX", "2"), Instant.now()).stripe());
        assertEquals(new Stripe(3, 4), flags.toSpec(Map.of("SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_COUNT",
            "4"), Instant.now()).stripe());
        assertEquals(ShardSpec.WHOLE, new ShardFlags().toSpec(Map.of("SLURM_ARRAY_TASK_ID", "3"), Instant.now()),
            "no shard flag: the whole run, whatever the environment says");
    }

    private void assertUsage(final String expected, final String... args)
    {
        assertEquals(Main.EXIT_USAGE, Main.execute(args), console.err());
        final String err = console.err().strip();
        assertTrue(err.contains(expected), err);
        assertEquals(1, err.lines().count(), "one line: " + err);
    }
}
