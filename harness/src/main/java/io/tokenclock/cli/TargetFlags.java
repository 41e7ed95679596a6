package io.tokenclock.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s flags for where requests go and how each is limited: the client/server boundary (N). Each one is
 * documented in docs/CLI.md; {@link Given} says which apply.
 */
final class TargetFlags
{
    @Option(names = "--url", description = "API base URL, e.g. http://127.0.0.1:8000/v1 (required without --config)")
    String url;

    @Option(names = "--endpoint",
        description = "chat, completions, responses (OpenAI Responses API) or messages (Anthropic Messages API) " +
            "(default: ${DEFAULT-VALUE}).")
    String endpoint;

    @Option(names = {"-H", "--header"},
        description = "Extra header NAME:VALUE (repeatable). Values are never written out.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--timeout", description = "Per-request timeout, seconds.")
    double timeout;

    @Option(names = "--insecure", description = "Accept any server certificate for https (no verification; " +
        "recorded in record.json and shown in the summary).")
    boolean insecure;

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
        // only as typed: a default would contradict a URL that ends in another API's path
        if (given.typed("--endpoint"))
        {
            o.api(endpointApi(endpoint));
        }
        if (given.set("--header"))
        {
            RunCommand.parseHeaders(headers).forEach(o::header);
        }
        given.apply(o, RunOption.INSECURE, insecure);
        o.preflight(!noPreflight);
        given.apply(o, RunOption.TIMEOUT_S, timeout);
    }

    /** @return the API {@code --endpoint} names, or one line saying which words there are. */
    static Api endpointApi(final String word)
    {
        try
        {
            return Api.ofWord(word);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--endpoint " + ex.getMessage());
        }
    }

    private void applyResponseLimits(final RunOptionsBuilder o, final Given given)
    {
    }
}
