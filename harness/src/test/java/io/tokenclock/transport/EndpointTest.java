package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;

final class EndpointTest
{
    @Test
    void shouldSendTheQueryButShowItRedacted()
    {
        final Endpoint e = Endpoint.parse("https://x.example.com/openai/deployments/d/chat/completions" +
            "?api-version=2024-10-21", Api.COMPLETIONS);
        assertEquals(Api.CHAT, e.api());
        assertEquals("/openai/deployments/d/chat/completions?api-version=2024-10-21", e.completionPath());
        assertEquals("https://x.example.com/openai/deployments/d/models?api-version=2024-10-21", e.modelsUrl());
        assertEquals("https://x.example.com/openai/deployments/d/chat/completions?api-version=<redacted>",
            e.shownCompletionUrl());
        assertEquals(e.shownCompletionUrl(), e.toString());
    }

    @Test
    void shouldTakeAUrlEndingInTheResponsesOrMessagesPathAsThatApiNotAsABase()
    {
        final Endpoint responses = Endpoint.parse("http://127.0.0.1:8080/v1/responses/", Api.CHAT);
        assertEquals(Api.RESPONSES, responses.api());
        assertEquals("/v1", responses.basePath());
        assertEquals("/v1/responses", responses.completionPath());
        assertEquals("http://127.0.0.1:8080/v1/models", responses.modelsUrl());

        final Endpoint messages = Endpoint.parse("https://api.example.com/v1/messages?beta=true", Api.CHAT);
        assertEquals(Api.MESSAGES, messages.api());
        assertEquals("/v1/messages?beta=true", messages.completionPath());

        final Endpoint base = Endpoint.parse("http://127.0.0.1:8080/v1", Api.MESSAGES);
        assertEquals(Api.MESSAGES, base.api(), "a base takes the API given");
        assertEquals("/v1/messages", base.completionPath());
    }

    @Test
    void shouldKeepUserInformationForAuthorizationAndNeverShowIt()
    {
        final Endpoint e = Endpoint.parse("http://bob:p%40ss@127.0.0.1:8000/v1", Api.CHAT);
        assertEquals("bob:p@ss", e.decodedUserInfo());
        assertEquals("http://127.0.0.1:8000/v1/chat/completions", e.shownCompletionUrl());
        assertFalse(e.toString().contains("bob"));
        assertNull(Endpoint.parse("http://127.0.0.1:8000/v1", Api.CHAT).userInfo());
    }

    @Test
    void shouldNotPrintCredentialsOfABadUrl()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Endpoint.parse("ftp://bob:s3cret@h/v1?key=k2", Api.CHAT));
        assertFalse(ex.getMessage().contains("s3cret") || ex.getMessage().contains("k2"), ex.getMessage());
    }

    @Test
    void shouldRejectAControlCharacterInAHeaderValueWithoutPrintingIt()
    {
        final Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Ok", "fine\tvalue");
        headers.put("X-Key", "s3cret\r\nInjected: yes");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> HeaderRules.check(headers));
        assertTrue(ex.getMessage().startsWith("header X-Key: its value holds a control character"), ex.getMessage());
        assertFalse(ex.getMessage().contains("s3cret"));
        assertThrows(IllegalArgumentException.class, () -> HeaderRules.check(Map.of("Bearer sk-1", "x")));
        HeaderRules.check(Map.of("X-Api-Key", "abc", "authorization", "Bearer x"));
    }
}
