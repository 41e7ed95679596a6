package io.tokenclock.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.framing.ChunkParser;
import io.tokenclock.framing.MessagesEventParser;
import io.tokenclock.framing.ResponsesEventParser;

/** What each API knows: its word, its path, its key's header and variable, its fixed headers, its grammar. */
final class ApiTest
{
    @Test
    void shouldNameEachApiByItsWordAndRefuseOtherWordsInOneLine()
    {
        assertEquals(Api.MESSAGES, Api.ofWord(" Messages "));
        assertEquals(Api.RESPONSES, Api.ofWord("responses"));
        assertEquals(Api.EMBEDDINGS, Api.ofWord("embeddings"));
        assertEquals(Api.RERANK, Api.ofWord("RERANK"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Api.ofWord("embed"));
        assertEquals("must be chat, completions, responses, messages, embeddings or rerank: embed", ex.getMessage());
    }

    @Test
    void shouldFindTheApiAtTheEndOfAPathChatBeforeCompletions()
    {
        assertEquals(Api.CHAT, Api.ofPathEnd("/v1/chat/completions"));
        assertEquals(Api.COMPLETIONS, Api.ofPathEnd("/v1/completions"));
        assertEquals(Api.RESPONSES, Api.ofPathEnd("/v1/responses"));
        assertEquals(Api.MESSAGES, Api.ofPathEnd("/v1/messages"));
        assertNull(Api.ofPathEnd("/v1"));
    }

    @Test
    void shouldPutTheMessagesKeyInXApiKeyBesideItsVersionAndTheOthersInAuthorization()
    {
        assertEquals("x-api-key", Api.MESSAGES.keyHeader());
        assertEquals("sk-ant", Api.MESSAGES.keyHeaderValue("sk-ant"));
        assertEquals("ANTHROPIC_API_KEY", Api.MESSAGES.defaultKeyEnv());
        assertEquals(Map.of("anthropic-version", "2023-06-01"), Api.MESSAGES.fixedHeaders());
        for (final Api api : new Api[] {Api.CHAT, Api.COMPLETIONS, Api.RESPONSES})
        {
            assertEquals("authorization", api.keyHeader());
            assertEquals("Bearer sk", api.keyHeaderValue("sk"));
            assertEquals("OPENAI_API_KEY", api.defaultKeyEnv());
            assertTrue(api.fixedHeaders().isEmpty());
        }
    }

    @Test
    void shouldGiveEachCallerAGrammarOfItsOwn()
    {
        assertTrue(Api.CHAT.newParser() instanceof ChunkParser);
        assertTrue(Api.COMPLETIONS.newParser() instanceof ChunkParser);
        assertTrue(Api.RESPONSES.newParser() instanceof ResponsesEventParser);
        assertTrue(Api.MESSAGES.newParser() instanceof MessagesEventParser);
        assertTrue(Api.RESPONSES.newParser() != Api.RESPONSES.newParser(), "parsers are not shared between threads");
    }
}
