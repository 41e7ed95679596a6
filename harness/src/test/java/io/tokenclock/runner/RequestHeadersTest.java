package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.transport.Endpoint;

/**
 * Where each API's key goes and what else every request carries. The key is read from a variable every environment
 * has ({@code PATH}), so that the test needs none of its own.
 */
final class RequestHeadersTest
{
    private static Map<String, String> headers(final RunOptions o)
    {
        return Preparation.requestHeaders(o, Endpoint.parse(o.target().url(), o.target().api()));
    }

    @Test
    void shouldSendTheMessagesKeyInXApiKeyWithTheVersionHeaderAndNoAuthorization()
    {
        final Map<String, String> h = headers(RunOptions.builder().url("http://127.0.0.1:9/v1/messages")
            .concurrency(1).apiKeyEnv("PATH").build());

        assertEquals(System.getenv("PATH").strip(), h.get("x-api-key"));
        assertEquals("2023-06-01", h.get("anthropic-version"));
        assertFalse(h.containsKey("authorization"));
    }

    @Test
    void shouldSendTheResponsesKeyAsABearerToken()
    {
        final Map<String, String> h = headers(RunOptions.builder().url("http://127.0.0.1:9/v1/responses")
            .concurrency(1).apiKeyEnv("PATH").build());

        assertEquals("Bearer " + System.getenv("PATH").strip(), h.get("authorization"));
        assertFalse(h.containsKey("x-api-key") || h.containsKey("anthropic-version"));
    }

    @Test
    void shouldLetTheUsersOwnKeyAndVersionHeadersWin()
    {
        final Map<String, String> h = headers(RunOptions.builder().url("http://127.0.0.1:9/v1/messages")
            .concurrency(1).apiKeyEnv("PATH").header("X-Api-Key", "given").header("Anthropic-Version", "2099-01-01")
            .build());

        assertEquals("given", h.get("X-Api-Key"));
        assertEquals("2099-01-01", h.get("Anthropic-Version"));
        assertTrue(h.keySet().stream().noneMatch(n -> n.equals("x-api-key") || n.equals("anthropic-version")),
            "no second copy: " + h.keySet());
    }

    @Test
    void shouldSendTheUrlsUserInformationAsBasicAuthorizationOnEveryApi()
    {
        final Map<String, String> h = headers(RunOptions.builder().url("http://u:p@127.0.0.1:9/v1/messages")
            .concurrency(1).apiKeyEnv("PATH").build());

        assertTrue(h.get("authorization").startsWith("Basic "));
        assertFalse(h.containsKey("x-api-key"), "the URL's credential is the most explicit");
    }
}
