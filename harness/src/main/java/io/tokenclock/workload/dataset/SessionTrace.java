package io.tokenclock.workload.dataset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A trace of sessions, read as its owner defines it, indexed in one pass and replayed a session at a time: the index
 * keeps, per session, only where its rows lie in the file (a few bytes a row), so a trace larger than memory replays
 * with one session's rows in memory at a time. Every row is checked while indexing, so a file in the wrong shape is
 * refused before the run, in one line naming the line and the field.
 * <ul>
 * <li>{@code mooncake}: Mooncake's JSONL ({@code timestamp} ms, {@code input_length}, {@code output_length},
 * {@code hash_ids}, one request a row), and AIPerf's {@code mooncake_trace} with sessions: rows with a
 * {@code session_id}, a session's first turn at its {@code timestamp}, each later one {@code delay} ms after the
 * previous turn completes, its {@code input_length} and {@code hash_ids} covering only the turn's new tokens (the
 * history, earlier turns and the server's answers, goes before them). One hash id is one block of 512 tokens, the last
 * block partial ({@code ceil(input_length / 512)} ids).</li>
 * <li>{@code tracelab}: TraceLab's round traces (uw-syfi/TraceLab; JSONL, optionally gzipped): one LLM round a row
 * ({@code session_id}, {@code round_index}, {@code input_tokens_total} = {@code prefix_tokens} +
 * {@code newly_append_tokens}, {@code output_tokens}, {@code timing_events} with ISO timestamps), read as AIPerf's
 * loader reads it: a round is submitted at its latest input event, its API time runs to its last output event, the
 * wait before the next round is the rest; block ids are minted per session, the first
 * {@code prefix_tokens / block_size} reused from the round before ({@link TraceLabTrace}).</li>
 * <li>{@code weka}: Weka's / SemiAnalysis AgentX cc-traces (callanjfox/kv-cache-tester; a directory of JSON traces,
 * one JSON trace, or JSONL of traces): {@code t}, {@code api_time}, {@code think_time} in seconds, a
 * {@code block_size} of each trace's own with only full blocks hashed, and {@code subagent} entries whose requests
 * run beside the parent ({@link WekaTrace}).</li>
 * </ul>
 * Sessions are replayed in the order of their start. Not thread-safe: the load generator's thread only.
 */
public final class SessionTrace implements AutoCloseable
{
    /** The formats read here. */
    public static final List<String> FORMATS = List.of("mooncake", "tracelab", "weka");
    /** Mooncake's block: 512 tokens a hash id. */
    public static final int MOONCAKE_BLOCK_TOKENS = 512;
    /** AIPerf's block for TraceLab traces, which record no block size of their own. */
    public static final int TRACELAB_BLOCK_TOKENS = 64;

    /** Where one session's rows lie; its turns are read only when the session opens. */
    static final class Entry
    {
        final String id;
        long startUs;
        final int firstLine;
        long[] offsets = new long[1];
        int[] lengths = new int[1];
        int[] lines = new int[1];
        int rows;
        Path file;

        Entry(final String id, final long startUs, final int firstLine)
        {
            this.id = id;
            this.startUs = startUs;
            this.firstLine = firstLine;
        }

        void add(final long offset, final int length, final int line)
        {
            if (rows == offsets.length)
            {
                offsets = Arrays.copyOf(offsets, rows << 1);
                lengths = Arrays.copyOf(lengths, rows << 1);
                lines = Arrays.copyOf(lines, rows << 1);
            }
            offsets[rows] = offset;
            lengths[rows] = length;
            lines[rows] = line;
            rows++;
        }
    }

    /** What a format adds to the common index: how it reads one session's rows back. */
    interface Reader
    {
        /** @return session {@code k}, read from {@code entry}, its start relative to the trace's. */
        TraceSession load(Entry entry, int k, long traceStartUs);

        /** @return a one-line description of the trace for the record. */
        String describe();
    }

    private final String format;
    private final Path path;
    private final TraceFile file;
    private final List<Entry> entries;
    private final Reader reader;
    private final long traceStartUs;
    private final boolean sessionRows;

    SessionTrace(final String format, final Path path, final TraceFile file, final List<Entry> entries,
        final Reader reader, final boolean sessionRows)
    {
        this.format = format;
        this.path = path;
        this.file = file;
        final List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingLong((Entry e) -> e.startUs).thenComparingInt(e -> e.firstLine));
        this.entries = sorted;
        this.reader = reader;
        this.traceStartUs = sorted.isEmpty() ? 0 : sorted.get(0).startUs;
        this.sessionRows = sessionRows;
        if (sorted.isEmpty())
        {
            close();
            throw new IllegalArgumentException(path + ": the trace has no sessions");
        }
    }

    /**
     * Indexes the trace at {@code path}.
     *
     * @param format        one of {@link #FORMATS}.
     * @param blockSize     tokens per hash id, or 0 for the format's own (512 Mooncake, 64 TraceLab; Weka traces say).
     * @param needsStarts   the trace's own schedule will be replayed: every session's first turn must say when.
     */
    public static SessionTrace open(final Path path, final String format, final int blockSize,
        final boolean needsStarts)
    {
        final String f = format.toLowerCase(Locale.ROOT);
        return switch (f)
        {
            case "mooncake" -> MooncakeTrace.index(path, blockSize > 0 ? blockSize : MOONCAKE_BLOCK_TOKENS,
                needsStarts);
            case "tracelab" -> TraceLabTrace.index(path, blockSize > 0 ? blockSize : TRACELAB_BLOCK_TOKENS);
            case "weka" -> WekaTrace.index(path, blockSize);
            default -> throw new IllegalArgumentException("a session trace's format must be one of " + FORMATS +
                ": " + format);
        };
    }

    /** @return whether {@code path} holds Mooncake rows with a {@code session_id} (read until the first one). */
    public static boolean hasSessionRows(final Path path)
    {
        return MooncakeTrace.hasSessionRows(path);
    }

    /** @return the format's name. */
    public String format()
    {
        return format;
    }

    /** @return whether the trace has sessions of several turns (false: Mooncake rows, one request each). */
    public boolean sessionRows()
    {
        return sessionRows;
    }

    /** @return the sessions, each counted once (subagents not counted). */
    public int sessions()
    {
        return entries.size();
    }

    /** @return when session {@code k} starts, µs from the trace's start (before any speed-up), in replay order. */
    public long startUs(final int k)
    {
        return entries.get(k).startUs - traceStartUs;
    }

    /** @return session {@code k}, its rows read from the file now. */
    public TraceSession load(final int k)
    {
        return reader.load(entries.get(k), k, traceStartUs);
    }

    /** @return a one-line description for the record. */
    public String describe()
    {
        return format + " trace " + path.getFileName() + ": " + entries.size() + " sessions; " + reader.describe();
    }

    /** @return the file this trace reads rows from, or null (a directory of Weka traces). */
    TraceFile file()
    {
        return file;
    }

    /** @return whether {@code path} is a directory, as a Weka corpus is. */
    static boolean isDirectory(final Path path)
    {
        return Files.isDirectory(path);
    }

    @Override
    public void close()
    {
        if (file != null)
        {
            file.close();
        }
    }
}
