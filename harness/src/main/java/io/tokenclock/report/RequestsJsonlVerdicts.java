package io.tokenclock.report;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongFunction;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.json.Json;
import io.tokenclock.quality.QualityVerdict;
import io.tokenclock.util.WholeFile;

/**
 * Adds each request's {@code success} and {@code quality} to {@code requests.jsonl} once the quality rule has judged
 * the outputs, after the window: every line gets the two fields appended, nothing else of it changes. {@code success}
 * is null for requests outside the measured phase (warm-up, ramp, cold start) and for outputs the rule excluded; for
 * a measured request it is true when it ended ok and passed the rule, false otherwise. {@code quality} is the
 * request's verdict ({@link QualityVerdict#toJson}), or null when its output was not judged. The file is rewritten
 * beside itself and renamed over, so a reader sees the old file or the new one. Cold path.
 */
public final class RequestsJsonlVerdicts
{
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper JSON = Json.MAPPER;

    private RequestsJsonlVerdicts()
    {
    }

    /**
     * @param verdicts a request id's verdict, or null when its output was not judged.
     */
    public static void annotate(final Path file, final LongFunction<QualityVerdict> verdicts) throws IOException
    {
        if (!Files.exists(file))
        {
            return;
        }
        WholeFile.write(file, stream ->
        {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                BufferedWriter out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8)))
            {
                copy(in, out, verdicts);
            }
        });
    }

    private static void copy(final BufferedReader in, final BufferedWriter out,
        final LongFunction<QualityVerdict> verdicts) throws IOException
    {
        String line;
        while ((line = in.readLine()) != null)
        {
            final int close = line.lastIndexOf('}');
            if (close < 0)
            {
                out.write(line);
            }
            else
            {
                out.write(line, 0, close);
                out.write(fields(line, verdicts));
                out.write('}');
            }
            out.write('\n');
        }
    }

    /** @return {@code ,"success":...,"quality":...} for one line. */
    static String fields(final String line, final LongFunction<QualityVerdict> verdicts) throws IOException
    {
        long id = -1;
        String phase = null;
        String status = null;
        try (JsonParser p = FACTORY.createParser(line))
        {
            if (p.nextToken() != JsonToken.START_OBJECT)
            {
                return ",\"success\":null,\"quality\":null";
            }
            while (p.nextToken() == JsonToken.FIELD_NAME)
            {
                final String name = p.currentName();
                p.nextToken();
                switch (name)
                {
                    case "id" -> id = p.getLongValue();
                    case "phase" -> phase = p.getText();
                    case "status" -> status = p.getText();
                    default -> p.skipChildren();
                }
            }
        }
        final QualityVerdict v = "measure".equals(phase) ? verdicts.apply(id) : null;
        final String success = !"measure".equals(phase) || (v != null && v.excluded()) ? "null" :
            Boolean.toString("ok".equals(status) && (v == null || v.pass()));
        return ",\"success\":" + success + ",\"quality\":" + (v == null ? "null" : JSON.writeValueAsString(v.toJson()));
    }
}
