package io.tokenclock.workload.dist;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Lengths replayed from observation: a histogram of (length, count) pairs, or the lengths themselves, e.g. the prompt
 * lengths of a production trace, one integer per line in a file. Each length is drawn with its observed frequency:
 * from the histogram {10: 1, 20: 2, 30: 7}, 30 comes up 70% of the time.
 * <p>
 * A sample is {@code quantile(random.nextDouble())}, and the quantile of u is the smallest length whose cumulative
 * count reaches u·total: for the histogram above, u in [0, 0.1] gives 10, (0.1, 0.3] gives 20 and (0.3, 1) gives 30.
 */
public final class Empirical implements LengthDistribution
{
    private final int[] lengths;
    private final long[] cumulativeCounts;
    private final long total;
    private final double mean;
    private final String source;

    private Empirical(final TreeMap<Integer, Long> histogram, final String source)
    {
        final int n = histogram.size();
        this.lengths = new int[n];
        this.cumulativeCounts = new long[n];
        long cumulative = 0;
        double weightedSum = 0.0;
        int i = 0;
        for (final Map.Entry<Integer, Long> entry : histogram.entrySet())
        {
            lengths[i] = entry.getKey();
            cumulative = Math.addExact(cumulative, entry.getValue());
            cumulativeCounts[i] = cumulative;
            weightedSum += (double)entry.getKey() * entry.getValue();
            i++;
        }
        if (n == 0 || cumulative == 0)
        {
            throw new IllegalArgumentException("histogram must hold at least one observation: " + source);
        }
        this.total = cumulative;
        this.mean = weightedSum / cumulative;
        this.source = source;
    }

    /**
     * @param countsByLength how many times each length was observed; lengths >= 1, counts >= 0, total > 0.
     * @return the distribution of those lengths.
     * @throws IllegalArgumentException naming the bad entry.
     */
    public static Empirical ofHistogram(final Map<Integer, Long> countsByLength)
    {
        if (countsByLength == null)
        {
            throw new IllegalArgumentException("countsByLength must not be null");
        }
        final TreeMap<Integer, Long> histogram = new TreeMap<>();
        for (final Map.Entry<Integer, Long> entry : countsByLength.entrySet())
        {
            final Integer length = entry.getKey();
            final Long count = entry.getValue();
            if (length == null || length < 1)
            {
                throw new IllegalArgumentException("histogram length must be >= 1: " + length);
            }
            if (count == null || count < 0)
            {
                throw new IllegalArgumentException("histogram count of length " + length + " must be >= 0: " + count);
            }
            if (count > 0)
            {
                histogram.put(length, count);
            }
        }
        return new Empirical(histogram, "histogram");
    }

    /**
     * @param lengths the lengths of the histogram, each >= 1 (a length may repeat; its counts add up).
     * @param counts how many times each was observed, >= 0, same size as {@code lengths}, total > 0.
     * @return the distribution of those lengths.
     * @throws IllegalArgumentException naming the bad entry.
     */
    public static Empirical ofHistogram(final int[] lengths, final long[] counts)
    {
        if (lengths == null || counts == null || lengths.length != counts.length)
        {
            throw new IllegalArgumentException("histogram needs one count per length: " +
                (lengths == null ? "null" : lengths.length) + " lengths, " +
                (counts == null ? "null" : counts.length) + " counts");
        }
        final TreeMap<Integer, Long> histogram = new TreeMap<>();
        for (int i = 0; i < lengths.length; i++)
        {
            if (lengths[i] < 1)
            {
                throw new IllegalArgumentException("histogram length [" + i + "] must be >= 1: " + lengths[i]);
            }
            if (counts[i] < 0)
            {
                throw new IllegalArgumentException("histogram count [" + i + "] must be >= 0: " + counts[i]);
            }
            if (counts[i] > 0)
            {
                histogram.merge(lengths[i], counts[i], Math::addExact);
            }
        }
        return new Empirical(histogram, "histogram");
    }

    /**
     * @param observed observed lengths, each >= 1, at least one.
     * @return the distribution that draws each observed length with its observed frequency.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static Empirical ofValues(final int... observed)
    {
        if (observed == null)
        {
            throw new IllegalArgumentException("observed must not be null");
        }
        return new Empirical(count(Arrays.stream(observed).boxed().toList(), "observation"), "observations");
    }

    /**
     * @param observed observed lengths, each >= 1, at least one.
     * @return the distribution that draws each observed length with its observed frequency.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static Empirical ofValues(final Collection<Integer> observed)
    {
        if (observed == null)
        {
            throw new IllegalArgumentException("observed must not be null");
        }
        return new Empirical(count(observed, "observation"), "observations");
    }

    /**
     * Reads observed lengths from a text file, one integer per line (UTF-8). Blank lines and lines starting with
     * {@code #} are skipped, surrounding white space is ignored.
     *
     * @param file the file.
     * @return the distribution of the lengths in it; {@link #describe()} names the file.
     * @throws UncheckedIOException if the file cannot be read (unchecked: the caller is a contract loader that reports
     * any failure to the user the same way).
     * @throws IllegalArgumentException naming the file and line of the first bad value, or if it holds no lengths.
     */
    public static Empirical fromFile(final Path file)
    {
        final TreeMap<Integer, Long> histogram = new TreeMap<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line;
            int lineNumber = 0;
            while ((line = reader.readLine()) != null)
            {
                lineNumber++;
                final String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#"))
                {
                    continue;
                }
                final int length;
                try
                {
                    length = Integer.parseInt(trimmed);
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalArgumentException(
                        file + ":" + lineNumber + ": not an integer length: '" + trimmed + "'", ex);
                }
                if (length < 1)
                {
                    throw new IllegalArgumentException(file + ":" + lineNumber + ": length must be >= 1: " + length);
                }
                histogram.merge(length, 1L, Long::sum);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read lengths file " + file, ex);
        }
        return new Empirical(histogram, file.toString());
    }

    private static TreeMap<Integer, Long> count(final Collection<Integer> observed, final String what)
    {
        final TreeMap<Integer, Long> histogram = new TreeMap<>();
        for (final Integer length : observed)
        {
            if (length == null || length < 1)
            {
                throw new IllegalArgumentException(what + " must be >= 1: " + length);
            }
            histogram.merge(length, 1L, Long::sum);
        }
        return histogram;
    }

    /** @return the number of observations. */
    public long observations()
    {
        return total;
    }

    /** @return the observed frequency of {@code length}, in [0, 1]. */
    public double frequency(final int length)
    {
        final int i = Arrays.binarySearch(lengths, length);
        if (i < 0)
        {
            return 0.0;
        }
        return (double)(cumulativeCounts[i] - (i == 0 ? 0 : cumulativeCounts[i - 1])) / total;
    }

    @Override
    public int sample(final SplittableRandom random)
    {
        return quantile(random.nextDouble());
    }

    @Override
    public int quantile(final double u)
    {
        DistSupport.requireProbability(u);
        final double target = u * total;
        int lo = 0;
        int hi = lengths.length - 1;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (cumulativeCounts[mid] >= target)
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        return lengths[lo];
    }

    @Override
    public double cdf(final int k)
    {
        final int i = Arrays.binarySearch(lengths, k);
        final int last = i >= 0 ? i : -i - 2;
        return last < 0 ? 0.0 : (double)cumulativeCounts[last] / total;
    }

    @Override
    public double mean()
    {
        return mean;
    }

    @Override
    public String describe()
    {
        return "empirical(observations=" + total + ", distinct=" + lengths.length + ", min=" + lengths[0] + ", max=" +
            lengths[lengths.length - 1] + ", mean=" + DistSupport.formatMeasured(mean) + ", source=" + source + ")";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
