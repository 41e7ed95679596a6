package io.tokenclock.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.json.Json;

/**
 * Each API's body as its reference documents it: where the prompt or the conversation goes, what caps the output,
 * what asks for a stream and its usage, how reasoning is asked for, and chaining by {@code previous_response_id}.
 */
final class BodyShapeTest
{
    private static final BodyShape.Decoding DECODING = new BodyShape.Decoding(true, 0.5, "high", 0);

    private static ObjectNode body(final Api api, final String prompt, final ArrayNode messages, final int maxTokens,
        final BodyShape.Decoding decoding, final String previous)
    {
        return api.shape().body(new BodyShape.Request("m", prompt, messages, maxTokens, decoding, previous));
    }

    private static ArrayNode conversation()
    {
        final ArrayNode m = Json.MAPPER.createArrayNode();
        m.addObject().put("role", "system").put("content", "be brief");
        m.addObject().put("role", "user").put("content", "hi");
        m.addObject().put("role", "assistant").put("content", "hello");
        m.addObject().put("role", "user").putArray("content").addObject().put("type", "text").put("text", "more");
        return m;
    }

    @Test
    void shouldLayOutChatAsBeforeWithItsUsageSwitchAndReasoningEffort()
    {
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":8," +
            "\"ignore_eos\":true,\"temperature\":0.5,\"reasoning_effort\":\"high\",\"stream\":true," +
            "\"stream_options\":{\"include_usage\":true}}", body(Api.CHAT, "hi", null, 8, DECODING, null).toString());
    }

    @Test
    void shouldLayOutTheResponsesApisInputCapReasoningAndChain()
    {
        final ObjectNode one = body(Api.RESPONSES, "hi", null, 8, DECODING, null);
        assertEquals("hi", one.path("input").asText());
        assertEquals(8, one.path("max_output_tokens").asInt());
        assertFalse(one.has("max_tokens"));
        assertEquals("high", one.path("reasoning").path("effort").asText());
        assertTrue(one.path("stream").asBoolean());
        assertFalse(one.has("stream_options"), "usage comes with response.completed, unasked");

        final ObjectNode chained = body(Api.RESPONSES, null, conversation(), 0, BodyShape.Decoding.NONE, "resp_1");
        assertEquals("resp_1", chained.path("previous_response_id").asText());
        assertEquals(4, chained.path("input").size());
        assertEquals("input_text", chained.path("input").get(3).path("content").get(0).path("type").asText(),
            "chat's text part as the Responses API's input_text");
        assertFalse(chained.has("max_output_tokens"), "0 leaves the cap to the server");
    }

    @Test
    void shouldLayOutTheMessagesApisSystemMessagesCapAndThinking()
    {
        final ObjectNode b = body(Api.MESSAGES, null, conversation(), 64, new BodyShape.Decoding(false, null, null,
            32), null);
        assertEquals("be brief", b.path("system").asText());
        assertEquals(3, b.path("messages").size(), "the system message is the API's own field");
        assertEquals("user", b.path("messages").get(0).path("role").asText());
        assertEquals(64, b.path("max_tokens").asInt());
        assertEquals("enabled", b.path("thinking").path("type").asText());
        assertEquals(32, b.path("thinking").path("budget_tokens").asInt());
        assertTrue(b.path("stream").asBoolean());
        assertFalse(b.has("stream_options"));

        assertThrows(IllegalArgumentException.class, () -> body(Api.MESSAGES, "hi", null, 0, DECODING, null),
            "the Messages API requires max_tokens");
    }

    @Test
    void shouldJoinAConversationIntoOnePromptForCompletions()
    {
        assertEquals("be brief\n\nhi\n\nhello\n\nmore", body(Api.COMPLETIONS, null, conversation(), 0, DECODING,
            null).path("prompt").asText(), "a part list's text parts are its text (images left out)");
    }
}
