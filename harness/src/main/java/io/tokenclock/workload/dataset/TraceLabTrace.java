package io.tokenclock.workload.dataset;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * TraceLab's round traces (uw-syfi/TraceLab, {@code docs/prompt_cache_accounting.md} and the README's data format),
 * read as AIPerf's {@code tracelab} loader ({@code _tracelab_convert.py}) reads them ({@link SessionTrace}):
 * <ul>
 * <li>a round is submitted at its latest input event ({@code user_message}, {@code tool_result}) or, with none, its
 * first output event; its API time runs from there to its last output event ({@code text}, {@code reasoning},
 * {@code tool_call}); a round with no timestamp at all is skipped (and counted);</li>
 * <li>a session's rounds are replayed in the order of their submission, {@code round_index} breaking ties; its first
 * round at its submission time, each later one after a wait of its submission less the previous round's end (the
 * human's and the tools' time);</li>
 * <li>the prompt is {@code input_tokens_total} tokens, of which {@code floor(total / block_size)} full blocks are
 * hashed: the first {@code floor(prefix_tokens / block_size)} are the previous round's, the rest new, so the engine's
 * recorded prefix reuse is reproduced to block granularity; the answer is {@code output_tokens} plus
 * {@code reasoning_output_tokens}.</li>
 * </ul>
 * TraceLab records no parent link for a subagent (its rounds are a session of their own), so a subagent replays as
 * its own session, at its own times, which lie inside its parent's.
 */
final class TraceLabTrace implements SessionTrace.Reader
{
    private static final Set<String> INPUT_EVENTS = Set.of("user_message", "tool_result");
    private static final Set<String> OUTPUT_EVENTS = Set.of("text", "reasoning", "tool_call");

    /** One round's fields, checked, with its timing. */
    private record Round(String sessionId, int roundIndex, int total, int prefix, int output, long submittedUs,
        long apiUs, int line)
    {
        static Round of(final TraceFields f, final int line)
        {
            final String sid = f.text("session_id");
            if (sid == null)
            {
                throw f.bad("session_id", "is missing");
            }
            final int total = f.required("input_tokens_total", 0);
            final int prefix = f.required("prefix_tokens", 0);
            final int appended = f.required("newly_append_tokens", 0);
            if (total != prefix + appended)
            {
                throw f.bad("input_tokens_total", total + " must equal \"prefix_tokens\" " + prefix +
                    " + \"newly_append_tokens\" " + appended);
            }
            final int output = f.required("output_tokens", 0) + f.integer("reasoning_output_tokens", 0, 0);
            final long[] timing = timing(f);
            return new Round(sid, f.required("round_index", 0), total, prefix, output, timing[0], timing[1], line);
        }
    }

    private final TraceFile file;
    private final int blockSize;
    private final int rounds;
    private final int skipped;

    private TraceLabTrace(final TraceFile file, final int blockSize, final int rounds, final int skipped)
    {
        this.file = file;
        this.blockSize = blockSize;
        this.rounds = rounds;
        this.skipped = skipped;
    }

    static SessionTrace index(final Path path, final int blockSize)
    {
        final TraceFile file = TraceFile.open(path);
        try
        {
            final Map<String, SessionTrace.Entry> sessions = new HashMap<>();
            final List<SessionTrace.Entry> entries = new ArrayList<>();
            final int[] counts = new int[2];
            file.forEachLine((lineNo, offset, length, text) ->
            {
                if (text.isBlank())
                {
                    return;
                }
                final Round r = Round.of(TraceFields.parse(file.source() + ":" + lineNo, text), lineNo);
                if (r.submittedUs() < 0)
                {
                    counts[1]++;
                    return;
                }
                counts[0]++;
                SessionTrace.Entry e = sessions.get(r.sessionId());
                if (e == null)
                {
                    e = new SessionTrace.Entry(r.sessionId(), r.submittedUs(), lineNo);
                    sessions.put(r.sessionId(), e);
                    entries.add(e);
                }
                e.startUs = Math.min(e.startUs, r.submittedUs());
                e.add(offset, length, lineNo);
            });
            return new SessionTrace("tracelab", path, file, entries,
                new TraceLabTrace(file, blockSize, counts[0], counts[1]), true);
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw ex;
        }
    }

    /** @return the round's submission time and API time, µs; {-1, -1} when it has no timestamp. */
    private static long[] timing(final TraceFields f)
    {
        final JsonNode events = f.node().path("timing_events");
        if (!events.isMissingNode() && !events.isNull() && !events.isArray())
        {
            throw f.bad("timing_events", "must be an array");
        }
        long lastInput = Long.MIN_VALUE;
        long firstOutput = Long.MAX_VALUE;
        long lastOutput = Long.MIN_VALUE;
        for (int k = 0; k < events.size(); k++)
        {
            final JsonNode e = events.get(k);
            final String type = e.path("event_type").asText("");
            if (!e.hasNonNull("timestamp") || !(INPUT_EVENTS.contains(type) || OUTPUT_EVENTS.contains(type)))
            {
                continue;
            }
            final long us = epochUs(f, "timing_events[" + k + "].timestamp", e.get("timestamp"));
            if (INPUT_EVENTS.contains(type))
            {
                lastInput = Math.max(lastInput, us);
            }
            else
            {
                firstOutput = Math.min(firstOutput, us);
                lastOutput = Math.max(lastOutput, us);
            }
        }
        if (lastInput == Long.MIN_VALUE && lastOutput == Long.MIN_VALUE)
        {
            return new long[] {-1, -1};
        }
        final long submitted = lastInput != Long.MIN_VALUE ? lastInput : firstOutput;
        return new long[] {submitted, lastOutput == Long.MIN_VALUE ? 0 : Math.max(0, lastOutput - submitted)};
    }

    /** @return an ISO-8601 time in µs since the epoch; one without an offset is taken as UTC, as AIPerf takes it. */
    private static long epochUs(final TraceFields f, final String field, final JsonNode value)
    {
        final String text = value.asText();
        try
        {
            final OffsetDateTime t = text.endsWith("Z") || text.matches(".*[+-]\\d\\d:?\\d\\d$") ?
                OffsetDateTime.parse(text) : LocalDateTime.parse(text).atOffset(ZoneOffset.UTC);
            return t.toEpochSecond() * 1_000_000L + t.getNano() / 1_000;
        }
        catch (final DateTimeParseException ex)
        {
            throw f.bad(field, "must be an ISO-8601 time, was " + value);
        }
    }

    @Override
    public TraceSession load(final SessionTrace.Entry entry, final int k, final long traceStartUs)
    {
        final List<Round> timed = new ArrayList<>(entry.rows);
        for (int i = 0; i < entry.rows; i++)
        {
            final String where = file.source() + ":" + entry.lines[i];
            final Round r = Round.of(TraceFields.parse(where, file.line(entry.offsets[i], entry.lengths[i])),
                entry.lines[i]);
            if (r.submittedUs() >= 0)
            {
                timed.add(r);
            }
        }
        timed.sort(Comparator.comparingLong(Round::submittedUs).thenComparingInt(Round::roundIndex));
        final TraceSession.BlockLayout layout = new TraceSession.BlockLayout(blockSize, true);
        final List<TraceTurn> turns = new ArrayList<>(timed.size());
        long[] previous = new long[0];
        long nextId = 1;
        for (int i = 0; i < timed.size(); i++)
        {
            final Round r = timed.get(i);
            final int blocks = r.total() / blockSize;
            final int reused = Math.min(Math.min(Math.min(r.prefix(), r.total()) / blockSize, previous.length),
                blocks);
            final long[] ids = Arrays.copyOf(previous, blocks);
            for (int b = reused; b < blocks; b++)
            {
                ids[b] = nextId++;
            }
            final Round before = i > 0 ? timed.get(i - 1) : null;
            final long waitUs = before == null ? 0 :
                Math.max(0, r.submittedUs() - (before.submittedUs() + before.apiUs()));
            turns.add(new TraceTurn(i, r.line(), waitUs, -1, Math.max(1, r.total()), ids, Math.max(1, r.output())));
            previous = ids;
        }
        return new TraceSession(entry.id, entry.startUs - traceStartUs, false, k + 1L, layout, turns, List.of());
    }

    @Override
    public String describe()
    {
        return rounds + " rounds" + (skipped > 0 ? " (" + skipped + " without a timestamp skipped)" : "") + "; " +
            blockSize + "-token blocks minted from prefix_tokens, only full blocks hashed";
    }
}
