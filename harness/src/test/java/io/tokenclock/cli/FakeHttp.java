package io.tokenclock.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;

/** Answers for the small JDK HTTP servers that integration tests stand in for an inference server with. */
final class FakeHttp
{
    /** Two content tokens, a finish_reason and [DONE]: the shortest proper stream. */
    static final String TWO_TOKENS = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n" +
        "data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

    private FakeHttp()
    {
    }

    /** Answers {@code status} with {@code text} as the whole body. */
    static void reply(final HttpExchange x, final int status, final String text) throws IOException
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream body = x.getResponseBody())
        {
            body.write(bytes);
        }
    }

    /** Answers 200 with an event stream holding {@code events}, chunked. */
    static void stream(final HttpExchange x, final String events) throws IOException
    {
        x.getRequestBody().readAllBytes();
        x.getResponseHeaders().add("content-type", "text/event-stream");
        x.sendResponseHeaders(200, 0);
        try (OutputStream body = x.getResponseBody())
        {
            body.write(events.getBytes(StandardCharsets.UTF_8));
        }
    }
}
