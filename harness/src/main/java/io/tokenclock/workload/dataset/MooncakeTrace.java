package io.tokenclock.workload.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Mooncake traces, and AIPerf's {@code mooncake_trace} with sessions ({@link SessionTrace}). A row without a
 * {@code session_id} is a request of its own at its {@code timestamp}, as in Mooncake's FAST'25 traces. Rows with one
 * are the turns of that session, in file order (a session's rows need not be contiguous): its first row is due at its
 * {@code timestamp}; a later row {@code delay} ms after the previous turn completed, or, given a {@code timestamp}
 * instead, at that time but never before the previous turn completed; a later row's {@code input_length} and
 * {@code hash_ids} cover only its new tokens.
 */
final class MooncakeTrace implements SessionTrace.Reader
{
    /** One row's fields, checked. */
    private record Row(String sessionId, long timestampUs, long delayUs, int inputLength, int outputLength,
        long[] hashIds)
    {
        static Row of(final TraceFields f, final TraceSession.BlockLayout layout)
        {
            final JsonNode sid = f.node().get("session_id");
            if (sid != null && !sid.isNull() && !(sid.isTextual() && !sid.asText().isEmpty()) &&
                !sid.isIntegralNumber())
            {
                throw f.bad("session_id", "must be a non-empty string");
            }
            final int input = f.required("input_length", 1);
            final long[] ids = f.ids("hash_ids");
            f.blocks(ids, input, layout, "input_length");
            return new Row(sid == null || sid.isNull() ? null : sid.asText(), f.micros("timestamp", 1e3, "ms"),
                f.micros("delay", 1e3, "ms"), input, f.required("output_length", 1), ids);
        }
    }

    private final TraceFile file;
    private final TraceSession.BlockLayout layout;
    private final int rows;
    private final int sessionRows;

    private MooncakeTrace(final TraceFile file, final TraceSession.BlockLayout layout, final int rows,
        final int sessionRows)
    {
        this.file = file;
        this.layout = layout;
        this.rows = rows;
        this.sessionRows = sessionRows;
    }

    static SessionTrace index(final Path path, final int blockSize, final boolean needsStarts)
    {
        final TraceFile file = TraceFile.open(path);
        try
        {
            final TraceSession.BlockLayout layout = new TraceSession.BlockLayout(blockSize, false);
            final Map<String, SessionTrace.Entry> sessions = new HashMap<>();
            final List<SessionTrace.Entry> entries = new ArrayList<>();
            final int[] counts = new int[2];
            file.forEachLine((lineNo, offset, length, text) ->
            {
                if (text.isBlank())
                {
                    return;
                }
                final TraceFields f = TraceFields.parse(file.source() + ":" + lineNo, text);
                final Row r = Row.of(f, layout);
                counts[0]++;
                final SessionTrace.Entry e = r.sessionId() == null ? single(f, r, lineNo, needsStarts) :
                    sessions.get(r.sessionId());
                if (e == null)
                {
                    final SessionTrace.Entry first = first(f, r, lineNo, needsStarts);
                    sessions.put(r.sessionId(), first);
                    entries.add(first);
                    first.add(offset, length, lineNo);
                }
                else
                {
                    if (r.sessionId() == null)
                    {
                        entries.add(e);
                    }
                    else if (r.timestampUs() >= 0 && r.delayUs() >= 0)
                    {
                        throw f.bad("delay", "and \"timestamp\" exclude each other: a later turn is due a delay " +
                            "after the previous turn completes, or at a timestamp");
                    }
                    e.add(offset, length, lineNo);
                }
                counts[1] += r.sessionId() == null ? 0 : 1;
            });
            return new SessionTrace("mooncake", path, file, entries, new MooncakeTrace(file, layout, counts[0],
                counts[1]), counts[1] > 0);
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw ex;
        }
    }

    private static SessionTrace.Entry single(final TraceFields f, final Row r, final int lineNo,
        final boolean needsStarts)
    {
        if (r.delayUs() >= 0)
        {
            throw f.bad("delay", "needs a \"session_id\": only a session's later turns wait for the one before");
        }
        if (needsStarts && r.timestampUs() < 0)
        {
            throw f.bad("timestamp", "is missing: a request is due at its timestamp (ms) on the trace's schedule");
        }
        return new SessionTrace.Entry(null, Math.max(0, r.timestampUs()), lineNo);
    }

    private static SessionTrace.Entry first(final TraceFields f, final Row r, final int lineNo,
        final boolean needsStarts)
    {
        if (r.delayUs() >= 0)
        {
            throw f.bad("delay", "comes before session " + r.sessionId() + "'s first turn: a first turn is due at " +
                "its \"timestamp\"");
        }
        if (needsStarts && r.timestampUs() < 0)
        {
            throw f.bad("timestamp", "is missing: session " + r.sessionId() + "'s first turn is due at its " +
                "timestamp (ms) on the trace's schedule");
        }
        return new SessionTrace.Entry(r.sessionId(), Math.max(0, r.timestampUs()), lineNo);
    }

    /** @return whether the file has a row with a {@code session_id}, read until the first one. */
    static boolean hasSessionRows(final Path path)
    {
        final boolean[] found = new boolean[1];
        try (TraceFile file = TraceFile.open(path))
        {
            file.forEachLine((lineNo, offset, length, text) ->
            {
                if (!found[0] && text.contains("\"session_id\"") && !text.isBlank())
                {
                    final JsonNode sid = TraceFields.parse(file.source() + ":" + lineNo, text).node()
                        .get("session_id");
                    found[0] = sid != null && !sid.isNull();
                }
            });
        }
        return found[0];
    }

    @Override
    public TraceSession load(final SessionTrace.Entry entry, final int k, final long traceStartUs)
    {
        final List<TraceTurn> turns = new ArrayList<>(entry.rows);
        for (int i = 0; i < entry.rows; i++)
        {
            final String where = file.source() + ":" + entry.lines[i];
            final Row r = Row.of(TraceFields.parse(where, file.line(entry.offsets[i], entry.lengths[i])), layout);
            final long atUs = i > 0 && r.delayUs() < 0 && r.timestampUs() >= 0 ? r.timestampUs() - traceStartUs : -1;
            turns.add(new TraceTurn(i, entry.lines[i], i == 0 ? 0 : Math.max(0, r.delayUs()), atUs, r.inputLength(),
                r.hashIds(), r.outputLength()));
        }
        return new TraceSession(entry.id, entry.startUs - traceStartUs, entry.id != null, 0, layout, turns,
            List.of());
    }

    @Override
    public String describe()
    {
        return rows + " rows (" + sessionRows + " of them session turns); " + layout.blockSize() +
            "-token blocks, the last partial";
    }
}
