package io.tokenclock.cost;

import java.util.Locale;

/**
 * The number of successful tasks that cost and energy are divided by, and what made them successes: the run's
 * quality rule when one is set, else completion. The seam through which a quality verdict reaches the cost and energy
 * figures.
 * <p>
 * Immutable and thread-safe.
 *
 * @param count how many measured requests (or tasks) succeeded.
 * @param basis what counted as a success.
 */
public record Successes(long count, Basis basis)
{
    /** What counted as a success. */
    public enum Basis
    {
        /** Passed the run's quality rule. */
        QUALITY,
        /** Completed without error (no quality rule was set). */
        COMPLETED;

        /** @return the record's word for it: {@code quality} or {@code completed}. */
        public String word()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Successes
    {
        if (count < 0)
        {
            throw new IllegalArgumentException("successes must be >= 0: " + count);
        }
    }

    /** @return {@code count} requests that passed the quality rule. */
    public static Successes quality(final long count)
    {
        return new Successes(count, Basis.QUALITY);
    }

    /** @return {@code count} requests that completed, when there is no quality rule. */
    public static Successes completed(final long count)
    {
        return new Successes(count, Basis.COMPLETED);
    }
}
