package io.tokenclock.workload.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmpiricalTest
{
    private static final long SEED = 5;

    @Test
    void shouldReproduceHistogramFrequenciesWithinOnePercent()
    {
        final Empirical empirical = Empirical.ofHistogram(Map.of(10, 1L, 20, 2L, 30, 7L, 40, 0L));
        final Samples samples = Samples.of(empirical, SEED);

        assertEquals(0.1, samples.fractionEqual(10), 0.01);
        assertEquals(0.2, samples.fractionEqual(20), 0.01);
        assertEquals(0.7, samples.fractionEqual(30), 0.01);
        assertEquals(0.0, samples.fractionEqual(40));
        assertEquals((10 * 1 + 20 * 2 + 30 * 7) / 10.0, empirical.mean(), 1e-12);
        assertEquals(0.7, empirical.frequency(30), 1e-12);
    }

    @Test
    void shouldSplitQuantilesExactlyAtCumulativeCounts()
    {
        final Empirical empirical = Empirical.ofHistogram(new int[]{30, 10, 20}, new long[]{7, 1, 2});

        assertEquals(10, empirical.quantile(0.1));
        assertEquals(20, empirical.quantile(0.1 + 1e-9));
        assertEquals(20, empirical.quantile(0.3));
        assertEquals(30, empirical.quantile(0.3 + 1e-9));
        assertEquals(0.3, empirical.cdf(29), 1e-12);
    }

    @Test
    void shouldAddUpRepeatedLengthsOfAHistogramOrAList()
    {
        assertEquals(0.75, Empirical.ofHistogram(new int[]{5, 5, 9}, new long[]{1, 2, 1}).frequency(5), 1e-12);
        final Empirical values = Empirical.ofValues(List.of(4, 4, 4, 8));
        assertEquals(0.75, values.frequency(4), 1e-12);
        assertEquals(5.0, values.mean(), 1e-12);
        assertEquals(4, values.observations());
    }

    @Test
    void shouldLoadOneLengthPerLineSkippingBlanksAndComments(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("lengths.txt"),
            "# prompt lengths from a trace\n128\n\n  256 \n128\n# end\n1024\n");
        final Empirical empirical = Empirical.fromFile(file);

        assertEquals(4, empirical.observations());
        assertEquals(0.5, empirical.frequency(128), 1e-12);
        assertEquals((128 + 256 + 128 + 1024) / 4.0, empirical.mean(), 1e-12);
        assertTrue(empirical.describe().contains("source=" + file), empirical.describe());
    }

    @Test
    void shouldNameFileAndLineOfABadLength(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("bad.txt"), "128\n256\ntwelve\n");

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Empirical.fromFile(file));
        assertEquals(file + ":3: not an integer length: 'twelve'", ex.getMessage());
        final Path zero = Files.writeString(dir.resolve("zero.txt"), "0\n");
        assertEquals(zero + ":1: length must be >= 1: 0",
            assertThrows(IllegalArgumentException.class, () -> Empirical.fromFile(zero)).getMessage());
    }

    @Test
    void shouldRejectEmptyAndMissingSources(@TempDir final Path dir) throws IOException
    {
        final Path empty = Files.writeString(dir.resolve("empty.txt"), "# nothing\n\n");

        assertThrows(IllegalArgumentException.class, () -> Empirical.fromFile(empty));
        assertThrows(UncheckedIOException.class, () -> Empirical.fromFile(dir.resolve("missing.txt")));
        assertThrows(IllegalArgumentException.class, () -> Empirical.ofHistogram(Map.of(10, 0L)));
        assertThrows(IllegalArgumentException.class, () -> Empirical.ofValues());
    }
}
