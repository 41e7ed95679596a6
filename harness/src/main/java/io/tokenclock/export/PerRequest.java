package io.tokenclock.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.json.Json;
import io.tokenclock.report.RequestLines;

/**
 * What the report takes from a run's {@code requests.jsonl} that its record does not hold: each measured request's
 * normalized time per output token, and its sessions. The file is read a line at a time by {@code report.RequestLines}
 * (which refuses a line that is no JSON object of finite numbers), so a run of millions of requests is never held
 * whole, and each line binds only the fields read here.
 * <p>
 * A session is the requests that share a {@code session_id} (a trace's own session), else those of one agent task
 * ({@code user} and {@code task}); a run whose lines carry neither has none (docs/RESULTS.md, "llm-d Benchmark
 * Report").
 */
final class PerRequest
{
    /** The file's name in a run directory. */
    static final String FILE = "requests.jsonl";

    private static final ObjectReader LINE = Json.MAPPER.readerFor(Line.class)
        .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The fields of a line read here.
     *
     * @param phase        {@code measure} for a measured request.
     * @param status       {@code ok}, {@code error} or {@code cancelled}.
     * @param e2eMs        its end-to-end latency, or null.
     * @param outputTokens its output tokens.
     * @param inputTokens  its input tokens, or null.
     * @param sentNs       when it was sent (0 if never).
     * @param endNs        when it ended.
     * @param sessionId    the trace's session, or null.
     * @param user         the simulated user, or null.
     * @param task         the user's agent task, or null.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Line(String phase, String status, Double e2eMs, long outputTokens, Long inputTokens, long sentNs,
        long endNs, JsonNode sessionId, Integer user, JsonNode task)
    {
        /** @return the session this request belongs to, or null. */
        String session()
        {
            if (sessionId != null && !sessionId.isNull())
            {
                return sessionId.asText();
            }
            return task != null && !task.isNull() ? user + "/" + task.asText() : null;
        }
    }

    /**
     * One session's measured requests.
     *
     * @param events       its measured requests.
     * @param completed    those that ended ok.
     * @param cancelled    those cancelled.
     * @param firstSentNs  the first one's send.
     * @param lastEndNs    the last one's end.
     * @param inputTokens  their input tokens (each carries the session's history).
     * @param outputTokens their output tokens.
     */
    record Session(int events, int completed, int cancelled, long firstSentNs, long lastEndNs, long inputTokens,
        long outputTokens)
    {
        /** @return whether every request of it ended ok. */
        boolean succeeded()
        {
            return completed == events;
        }

        /** @return its duration, first send to last end, in seconds. */
        double durationS()
        {
            return (lastEndNs - firstSentNs) / 1e9;
        }

        Session add(final Line l)
        {
            return new Session(events + 1, completed + ("ok".equals(l.status()) ? 1 : 0),
                cancelled + ("cancelled".equals(l.status()) ? 1 : 0), Math.min(firstSentNs, sent(l)),
                Math.max(lastEndNs, l.endNs()), inputTokens + tokens(l.inputTokens()), outputTokens + l.outputTokens());
        }

        static Session of(final Line l)
        {
            return new Session(0, 0, 0, sent(l), l.endNs(), 0, 0).add(l);
        }

        private static long sent(final Line l)
        {
            return l.sentNs() > 0 ? l.sentNs() : l.endNs();
        }

        private static long tokens(final Long n)
        {
            return n == null ? 0 : n;
        }
    }

    /**
     * @param ntpot    each measured ok request's e2e over its output tokens, recorded in ns per token (3 significant
     *                 digits, as every tokenclock histogram), so that a file of millions of lines is never held.
     * @param sessions the sessions, in the order their first request ended; empty when the lines name none.
     */
    record Data(Histogram ntpot, List<Session> sessions)
    {
        /** Values of {@link #ntpot()} per ms/token. */
        static final double NS_PER_MS = 1e6;
    }

    private PerRequest()
    {
    }

    /**
     * @return what {@code dir}'s {@code requests.jsonl} holds for the report, or null when it has none (a peer's file).
     * @throws IllegalArgumentException for a line that is not a request's (one line naming the file and the line).
     */
    static Data read(final Path dir) throws IOException
    {
        final Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final Histogram ntpot = new Histogram(3);
        final Map<String, Session> sessions = new LinkedHashMap<>();
        try (RequestLines lines = RequestLines.open(file))
        {
            ObjectNode n;
            while ((n = lines.next()) != null)
            {
                final Line l = line(file, lines.line(), n);
                if (!"measure".equals(l.phase()))
                {
                    continue;
                }
                if ("ok".equals(l.status()) && l.e2eMs() != null && l.outputTokens() > 0)
                {
                    ntpot.recordValue(Math.max(0, Math.round(l.e2eMs() / l.outputTokens() * Data.NS_PER_MS)));
                }
                final String session = l.session();
                if (session != null)
                {
                    sessions.merge(session, Session.of(l), (s, one) -> s.add(l));
                }
            }
        }
        return new Data(ntpot, List.copyOf(sessions.values()));
    }

    private static Line line(final Path file, final long n, final ObjectNode line)
    {
        try
        {
            return LINE.readValue(line);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": line " + n + ": not a request's line: " +
                (ex instanceof JacksonException j ? j.getOriginalMessage() : ex.getMessage()));
        }
    }
}
