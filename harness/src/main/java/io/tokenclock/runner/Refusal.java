package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.text.UntrustedText;
import io.tokenclock.util.WholeFile;

/**
 * A server's refusal of the run's configuration, answered to the preflight: every request of the run would have
 * met it (a 500 "CUDA out of memory", a 400 on the model or a body option, an error event, a JSON body where a
 * stream was asked for). The protocol records a rejected configuration rather than omitting it, so the refusal is
 * written to the run directory as {@value #FILE}, which {@code tokenclock record DIR} prints and a sweep point cites.
 * Answers that say "not ready yet" (502, 503, 504) and answers that never came (timeouts, refused connections) are
 * not refusals of the configuration, and are not written.
 *
 * @param kind    what the refusal was.
 * @param request the request that met it, {@code POST <url>}, the URL redacted.
 * @param status  the HTTP status.
 * @param body    what the server sent, escaped (never raw bytes) and cut at {@link #MAX_BODY_CHARS}.
 */
public record Refusal(Kind kind, String request, int status, String body)
{
    /** The file in the run directory. */
    public static final String FILE = "refusal.json";
    /** The most of the server's body kept, characters: enough for any error message, bounded for any server. */
    static final int MAX_BODY_CHARS = 4096;
    private static final ObjectMapper JSON = Json.MAPPER;

    /** What the server answered. */
    public enum Kind
    {
        /** A status other than 200 that waiting would not change. */
        STATUS("status"),
        /** 200, then an event {@code {"error": ...}} in the stream. */
        ERROR_EVENT("error_event"),
        /** 200 with a JSON body: the server ignored {@code stream: true}. */
        NOT_STREAMING("not_streaming");

        public final String key;

        Kind(final String key)
        {
            this.key = key;
        }
    }

    static Refusal of(final Kind kind, final String shownUrl, final int status, final String body)
    {
        return new Refusal(kind, "POST " + shownUrl, status, UntrustedText.escaped(body == null ? "" : body,
            MAX_BODY_CHARS));
    }

    /**
     * Writes {@value #FILE} into {@code dir} (created if needed).
     *
     * @param runId   the run's id.
     * @param message the one line the user saw.
     * @return the file written.
     */
    public Path write(final Path dir, final String runId, final String message) throws IOException
    {
        Files.createDirectories(dir);
        final ObjectNode n = JSON.createObjectNode();
        n.put("format", "tokenclock-refusal/1");
        n.put("run_id", runId);
        n.put("written_at", Instant.now().toString());
        n.put("phase", "preflight");
        n.put("kind", kind.key);
        n.put("request", request);
        n.put("status", status);
        n.put("body", body);
        n.put("message", message);
        n.put("note", "the server refused the run's configuration before the measured window; nothing was " +
            "measured, and the run has no record.json");
        final Path file = dir.resolve(FILE);
        WholeFile.write(file, Json.PRETTY.writeValueAsBytes(n));
        return file;
    }

    /**
     * @return {@code refusal.json} as {@code tokenclock record} prints it; every string of the file is escaped again,
     * so that a file edited by hand cannot reach the terminal raw either.
     */
    public static String render(final JsonNode refusal)
    {
        final StringBuilder sb = new StringBuilder("REFUSED CONFIGURATION: the server refused this run's " +
            "configuration at the preflight; nothing was measured\n");
        for (final String[] row : new String[][] {{"run", "run_id"}, {"request", "request"}, {"kind", "kind"},
            {"status", "status"}, {"body", "body"}, {"said", "message"}, {"written", "written_at"}})
        {
            sb.append(String.format(java.util.Locale.ROOT, "  %-8s %s%n", row[0],
                UntrustedText.escaped(refusal.path(row[1]).asText(), MAX_BODY_CHARS)));
        }
        return sb.toString();
    }
}
