package io.tokenclock.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.transport.Endpoint;

/**
 * {@code run}'s flags for where requests go and how each is limited: the client/server boundary (N). Each one is
 * documented in docs/CLI.md; {@link Given} says which apply.
 */
final class TargetFlags
{
    @Option(names = "--url", description = "API base URL, e.g. http://127.0.0.1:8000/v1 (required without --config)")
    String url;

    @Option(names = "--endpoint",
        description = "chat or completions (default: ${DEFAULT-VALUE}).")
    String endpoint;

    @Option(names = {"-H", "--header"},
        description = "Extra header NAME:VALUE (repeatable). Values are never written out.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--api-key-env",
        description = "Environment variable holding the API key (default: ${DEFAULT-VALUE}).")
    String apiKeyEnv;

    @Option(names = "--timeout", description = "Per-request timeout, seconds.")
    double timeout;

    @Option(names = "--connect-timeout", description = "Seconds to open a connection " +
        "(0: no limit); requests that run out are timeout_connect.")
    double connectTimeout;

    @Option(names = "--first-byte-timeout", description = "Seconds from send to the first byte " +
        "of the response (0: no limit); requests that run out are timeout_first_byte.")
    double firstByteTimeout;

    @Option(names = "--idle-timeout", description = "Seconds of silence allowed mid-response " +
        "(0: no limit); requests that run out are timeout_idle.")
    double idleTimeout;

    @Option(names = "--retry-429", paramLabel = "N", description = "Send a request answered 429 " +
        "again after its Retry-After (1 s without one, at most 60 s), up to N times; retries are counted apart " +
        "(default 0: each 429 is an error).")
    int retry429;

    @Option(names = "--max-event-bytes", description = "The longest SSE event (or line) " +
        "kept; a longer one ends its request as oversize.")
    int maxEventBytes;

    @Option(names = "--max-output-bytes", description = "The most answer text kept per " +
        "request (content, reasoning and tool calls, each); more ends the request as oversize.")
    int maxOutputBytes;

    @Option(names = "--ca-cert", paramLabel = "FILE", description = "Trust the CA certificates in this PEM file " +
        "for https (instead of the JDK's default CAs).")
    Path caCert;

    @Option(names = "--insecure", description = "Accept any server certificate for https (no verification; " +
        "recorded in record.json and shown in the summary).")
    boolean insecure;

    @Option(names = "--wait-ready", description = "Seconds to wait for a server that is " +
        "starting or loading its model (503, 502, 504, refused connections): /models, then one probe request, " +
        "polled once a second.")
    double waitReady;

    @Option(names = "--no-preflight", negatable = false, description = "Skip the /models probe and the test request.")
    boolean noPreflight;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        applyEndpointAndTimeouts(o, given);
        applyResponseLimits(o, given);
    }

    private void applyEndpointAndTimeouts(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.URL, url);
        if (given.set("--endpoint"))
        {
            o.api(switch (endpoint.toLowerCase(Locale.ROOT))
            {
                case "chat" -> Endpoint.Api.CHAT;
                case "completions" -> Endpoint.Api.COMPLETIONS;
                default -> throw new IllegalArgumentException("--endpoint must be chat or completions: " + endpoint);
            });
        }
        if (given.set("--header"))
        {
            RunCommand.parseHeaders(headers).forEach(o::header);
        }
        given.apply(o, RunOption.API_KEY_ENV, apiKeyEnv);
        given.apply(o, RunOption.CA_CERT, caCert);
        given.apply(o, RunOption.INSECURE, insecure);
        given.apply(o, RunOption.WAIT_READY_S, waitReady);
        o.preflight(!noPreflight);
        given.apply(o, RunOption.TIMEOUT_S, timeout);
        given.apply(o, RunOption.CONNECT_TIMEOUT_S, connectTimeout);
        given.apply(o, RunOption.FIRST_BYTE_TIMEOUT_S, firstByteTimeout);
        given.apply(o, RunOption.IDLE_TIMEOUT_S, idleTimeout);
    }

    private void applyResponseLimits(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.RETRIES_429, retry429);
        given.apply(o, RunOption.MAX_EVENT_BYTES, maxEventBytes);
        given.apply(o, RunOption.MAX_OUTPUT_BYTES, maxOutputBytes);
    }
}
