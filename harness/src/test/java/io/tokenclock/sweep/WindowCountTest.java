package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short sweep point's achieved rate (issue 38): offered 15.4 req/s of 3 s requests in a 5 s point read as 10.7
 * req/s when divided by the window and the drain; counted inside the window it is what the server did while loaded.
 */
final class WindowCountTest
{
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldCountEveryRequestThatEndedOkInsideTheWindowWhateverItsPhase() throws IOException
    {
        // 15 req/s sent from t = -4 s (warm-up) to t = 5 s (the window is [0, 5 s]), each answered 3 s later.
        final List<String> lines = new ArrayList<>();
        for (int i = 0; i < 135; i++)
        {
            final long sent = -4 * S + i * S / 15;
            lines.add("{\"phase\":\"" + (sent < 0 ? "warmup" : "measure") + "\",\"status\":\"" + (i == 70 ? "error" :
                "ok") + "\",\"sent_ns\":" + (10 * S + sent) + ",\"end_ns\":" + (10 * S + sent + 3 * S) + "}");
        }
        Files.write(dir.resolve("requests.jsonl"), lines);
        final long n = WindowCount.okInWindow(dir.resolve("requests.jsonl"), 10 * S, 15 * S);
        // Ends in [0, 5 s]: sent in [-3 s, 2 s], 76 requests, one of them failed.
        assertEquals(75, n);
        assertTrue(Math.abs(n / 5.0 - 15) < 0.5, "achieved follows the offered 15 req/s: " + n / 5.0);
    }

    @Test
    void shouldSayWhenTheRunWroteNoRequestsFile()
    {
        assertEquals(-1, WindowCount.okInWindow(dir.resolve("requests.jsonl"), 0, 1));
    }
}
