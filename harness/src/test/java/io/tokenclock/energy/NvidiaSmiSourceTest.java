package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fake {@code nvidia-smi} (a shell script on a PATH of the test's own, never the real PATH) prints known samples;
 * each line is stamped by a clock that steps one second per reading, so the integral is exact.
 */
@Timeout(30)
final class NvidiaSmiSourceTest
{
    private static final long S = 1_000_000_000L;

    @TempDir
    Path bin;

    private void fake(final String output) throws IOException
    {
        final Path script = bin.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\nprintf '" + output + "'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void shouldIntegrateEachGpusPowerLinesToTheJoule() throws Exception
    {
        // Stamps 1 s, 2 s, ... in line order: GPU 0 at 1, 3, 5 s; GPU 1 at 2, 4, 6 s.
        fake("0, 100.00\\n1, 50.00\\n0, 200.00\\n1, 50.00\\n0, 300.00\\n1, 50.00\\n");
        final NvidiaSmiSource smi = new NvidiaSmiSource("nvidia-smi", bin.toString(), List.of(0, 1), 500,
            new StepClock(S, S));
        assertNull(smi.unavailable());
        smi.start(() -> {});
        assertTrue(smi.awaitExit(20_000), "the fake prints and exits");
        smi.stop();

        final List<Channel> channels = smi.channels(0);
        assertEquals(List.of("nvidia-smi:0", "nvidia-smi:1"), channels.stream().map(Channel::id).toList());
        // GPU 0 over [1 s, 5 s]: 0.5 x (100 + 200) x 2 + 0.5 x (200 + 300) x 2 = 800 J.
        final Integral gpu0 = channels.get(0).integrate(S, 5 * S);
        assertEquals(800.0, gpu0.joules(), 1e-9);
        assertEquals("trapezoid", gpu0.method());
        assertEquals(2000.0, gpu0.meanIntervalMs(), 1e-9);
        // GPU 1 over [2 s, 6 s]: 50 W for 4 s = 200 J, no step, no error.
        final Integral gpu1 = channels.get(1).integrate(2 * S, 6 * S);
        assertEquals(200.0, gpu1.joules(), 1e-9);
        assertEquals(0.0, gpu1.uncertaintyJoules(), 1e-12);
    }

    @Test
    void shouldRunTheQueryAsAnArgumentVector() throws IOException
    {
        fake("");
        final NvidiaSmiSource smi = new NvidiaSmiSource("nvidia-smi", bin.toString(), List.of(0, 1), 250,
            new StepClock(0, S));
        assertEquals(List.of(bin.resolve("nvidia-smi").toString(), "--query-gpu=index,power.draw",
            "--format=csv,noheader,nounits", "-lms", "250", "-i", "0,1"), smi.argv());
    }

    @Test
    void shouldBeUnavailableWhenNotOnThePath()
    {
        final NvidiaSmiSource smi = new NvidiaSmiSource("nvidia-smi", bin.toString(), List.of(), 100,
            new StepClock(0, S));
        assertEquals("nvidia-smi: nvidia-smi not found on PATH", smi.unavailable());
    }

    @Test
    void shouldKeepAnUnsupportedReadingAsTheChannelsReasonNotAZero() throws Exception
    {
        fake("0, [N/A]\\n0, [N/A]\\n");
        final NvidiaSmiSource smi = new NvidiaSmiSource("nvidia-smi", bin.toString(), List.of(), 100,
            new StepClock(S, S));
        smi.start(() -> {});
        assertTrue(smi.awaitExit(20_000));
        smi.stop();
        final Integral i = smi.channels(0).get(0).integrate(S, 2 * S);
        assertFalse(i.available());
        assertEquals("nvidia-smi: GPU 0 power.draw is [N/A]", i.unavailable());
    }
}
