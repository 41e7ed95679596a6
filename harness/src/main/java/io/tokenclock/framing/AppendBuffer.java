package io.tokenclock.framing;

import java.util.Arrays;

/**
 * Bytes appended to an array that grows, and the length used of it: the one grow-and-append of the hot path (the SSE
 * framer's line and event data, a request's answer, reasoning and tool calls). It grows by doubling, to at least what
 * an append needs and never past the limit the caller names, so once it has grown to a workload's size, appending
 * allocates nothing (PerChunkAllocationTest). What is over the limit is the caller's to decide: {@link #append} takes
 * an append whole or not at all (a request's text: a cut answer would be judged as if it were whole), and
 * {@link #appendPrefix} keeps what fits (an SSE event: its start still classifies it).
 * <p>
 * Worked example: with a limit of 8, appending {@code "abcde"} then {@code "fghij"} whole leaves {@code "abcde"} and
 * returns false the second time; appending the second as a prefix leaves {@code "abcdefgh"}, and returns false.
 * <p>
 * A flyweight like the slot that holds it: {@link #array()} is the live array, valid up to {@link #length()} until
 * the next append or {@link #clear()}. Not thread-safe; it moves between threads with its owner.
 */
public final class AppendBuffer
{
    /** The smallest capacity a growing buffer takes, so that one that starts empty does not double from 1. */
    private static final int MIN_GROWTH = 256;

    private byte[] array;
    private int length;

    /** @param initialCapacity bytes to allocate now, >= 0 (0: none until the first append). */
    public AppendBuffer(final int initialCapacity)
    {
        if (initialCapacity < 0)
        {
            throw new IllegalArgumentException("initialCapacity must be >= 0: " + initialCapacity);
        }
        this.array = new byte[initialCapacity];
    }

    /** @return the live array; bytes from 0 to {@link #length()} are the content. */
    public byte[] array()
    {
        return array;
    }

    /** @return the bytes appended since the last {@link #clear()}. */
    public int length()
    {
        return length;
    }

    /** @return the bytes the array holds before it must grow again. */
    public int capacity()
    {
        return array.length;
    }

    /** Forgets the content and keeps the grown array. */
    public void clear()
    {
        length = 0;
    }

    /** @return whether {@code more} bytes can be appended without passing {@code limitBytes}. */
    public boolean fits(final int more, final int limitBytes)
    {
        return (long)length + more <= limitBytes;
    }

    /**
     * Appends {@code count} bytes of {@code src} whole, or nothing when they would take the length past
     * {@code limitBytes}.
     *
     * @return whether they were appended.
     */
    public boolean append(final byte[] src, final int offset, final int count, final int limitBytes)
    {
        if (!fits(count, limitBytes))
        {
            return false;
        }
        ensureCapacity(length + count, limitBytes);
        System.arraycopy(src, offset, array, length, count);
        length += count;
        return true;
    }

    /**
     * Appends one byte, unless the length is already {@code limitBytes}.
     *
     * @return whether it was appended.
     */
    public boolean append(final byte b, final int limitBytes)
    {
        if (!fits(1, limitBytes))
        {
            return false;
        }
        ensureCapacity(length + 1, limitBytes);
        array[length++] = b;
        return true;
    }

    /**
     * Appends as much of {@code count} bytes of {@code src} as fits under {@code limitBytes}.
     *
     * @return whether all of them did.
     */
    public boolean appendPrefix(final byte[] src, final int offset, final int count, final int limitBytes)
    {
        final int n = (int)Math.min(count, Math.max(0L, (long)limitBytes - length));
        ensureCapacity(length + n, limitBytes);
        System.arraycopy(src, offset, array, length, n);
        length += n;
        return n == count;
    }

    private void ensureCapacity(final int needed, final int limitBytes)
    {
        if (needed > array.length)
        {
            final long doubled = Math.max(MIN_GROWTH, (long)array.length << 1);
            final long capacity = Math.min(Math.max(needed, doubled), Math.max(needed, limitBytes));
            array = Arrays.copyOf(array, (int)Math.min(capacity, Integer.MAX_VALUE - 8));
        }
    }
}
