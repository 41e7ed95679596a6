package io.tokenclock.sweep;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.json.Json;

/**
 * How many requests a run completed inside a stretch of its clock, read back from its {@code requests.jsonl}: the
 * numerator of a sweep point's achieved rate ({@link SweepPoint}). Every request counts whatever its phase, since
 * the server was as busy with a warm-up request that ended inside the window as with a measured one. Cold path, one
 * line in memory at a time; stateless.
 * <p>
 * Worked example: a 5 s point at 15.4 req/s of 3 s requests opens its window at t0; the requests that end ok in
 * [t0, t0 + 5 s] are those sent in about [t0 - 3 s, t0 + 2 s], warm-up included: about 77, so 15.4 req/s achieved
 * while the server kept up, where the record's window (to the last measured end, t0 + 8 s) gave 77 / 7.2 = 10.7.
 */
final class WindowCount
{
    private WindowCount()
    {
    }

    /**
     * @param requests the run's requests.jsonl.
     * @param fromNs   the window's opening, on the run's clock.
     * @param toNs     its end.
     * @return requests with {@code status} ok and {@code end_ns} in [fromNs, toNs]; -1 when the file is missing.
     */
    static long okInWindow(final Path requests, final long fromNs, final long toNs)
    {
        long n = 0;
        try (BufferedReader in = Files.newBufferedReader(requests, StandardCharsets.UTF_8))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                if (line.isBlank())
                {
                    continue;
                }
                final JsonNode r = Json.MAPPER.readTree(line);
                final long end = r.path("end_ns").asLong(0);
                if ("ok".equals(r.path("status").asText()) && end >= fromNs && end <= toNs)
                {
                    n++;
                }
            }
        }
        catch (final NoSuchFileException ex)
        {
            return -1;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(requests + ": " + ex.getMessage(), ex);
        }
        return n;
    }
}
