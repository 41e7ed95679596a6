package io.tokenclock.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.json.Json;

/**
 * Images in each API's own shape (chat's {@code image_url} data URLs, the Responses API's {@code input_image}, the
 * Messages API's {@code image} block with a base64 source), a dataset's chat-form images carried over to the others;
 * and the bodies of embeddings and rerank.
 */
final class ImagesAndInputsBodyTest
{
    private static final BodyShape.Decoding DECODING = new BodyShape.Decoding(false, null, null, 0);
    private static final List<BodyShape.Image> TWO = List.of(new BodyShape.Image("image/png", "iVBORw0K"),
        new BodyShape.Image("image/jpeg", "/9j/4AAQ"));

    private static ObjectNode body(final Api api, final String prompt, final ArrayNode messages)
    {
        return api.shape().body(new BodyShape.Request("m", prompt, messages, 16, DECODING, null, null, TWO));
    }

    @Test
    void shouldAddImagesToChatAsImageUrlPartsWithDataUrlsAfterTheText()
    {
        assertEquals("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"describe\"},{\"type\":" +
            "\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,iVBORw0K\"}},{\"type\":\"image_url\"," +
            "\"image_url\":{\"url\":\"data:image/jpeg;base64,/9j/4AAQ\"}}]}]",
            body(Api.CHAT, "describe", null).get("messages").toString());
    }

    @Test
    void shouldAddImagesToTheResponsesApiAsInputImages()
    {
        assertEquals("[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"describe\"},{\"type\":" +
            "\"input_image\",\"image_url\":\"data:image/png;base64,iVBORw0K\"},{\"type\":\"input_image\"," +
            "\"image_url\":\"data:image/jpeg;base64,/9j/4AAQ\"}]}]",
            body(Api.RESPONSES, "describe", null).get("input").toString());
    }

    @Test
    void shouldAddImagesToTheMessagesApiAsBase64ImageBlocks()
    {
        assertEquals("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"describe\"},{\"type\":" +
            "\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"iVBORw0K\"}}," +
            "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/jpeg\",\"data\":" +
            "\"/9j/4AAQ\"}}]}]", body(Api.MESSAGES, "describe", null).get("messages").toString());
    }

    @Test
    void shouldCarryADatasetLinesChatImagesIntoEachApisShapeAndAddTheSyntheticOnesToTheLastUserMessage()
    {
        final ArrayNode line = Json.MAPPER.createArrayNode();
        line.addObject().put("role", "system").put("content", "be brief");
        final ArrayNode parts = line.addObject().put("role", "user").putArray("content");
        parts.addObject().put("type", "text").put("text", "compare");
        parts.addObject().put("type", "image_url").putObject("image_url").put("url", "https://example.com/a.png");
        final ObjectNode messages = Api.MESSAGES.shape().body(new BodyShape.Request("m", null, line, 16, DECODING,
            null, null, TWO.subList(0, 1)));
        assertEquals("be brief", messages.get("system").asText());
        assertEquals("[{\"type\":\"text\",\"text\":\"compare\"},{\"type\":\"image\",\"source\":{\"type\":\"url\"," +
            "\"url\":\"https://example.com/a.png\"}},{\"type\":\"image\",\"source\":{\"type\":\"base64\"," +
            "\"media_type\":\"image/png\",\"data\":\"iVBORw0K\"}}]",
            messages.get("messages").get(0).get("content").toString());
        assertEquals(2, line.get(1).get("content").size(), "the dataset's line is left as it was");
        final ObjectNode responses = Api.RESPONSES.shape().body(new BodyShape.Request("m", null, line, 16, DECODING,
            null, null, List.of()));
        assertEquals("{\"type\":\"input_image\",\"image_url\":\"https://example.com/a.png\"}",
            responses.get("input").get(1).get("content").get(1).toString());
    }

    @Test
    void shouldLeaveABodyWithoutImagesAsItWas()
    {
        assertEquals("[{\"role\":\"user\",\"content\":\"describe\"}]", Api.CHAT.shape().body(new BodyShape.Request(
            "m", "describe", null, 16, DECODING, null)).get("messages").toString());
        assertEquals("describe", Api.RESPONSES.shape().body(new BodyShape.Request("m", "describe", null, 16,
            DECODING, null)).get("input").asText());
    }

    @Test
    void shouldListEmbeddingsInputsAsFloatsWithoutAnOutputCap()
    {
        final ObjectNode b = Api.EMBEDDINGS.shape().body(new BodyShape.Request("m", null, null, 16, DECODING, null,
            new BodyShape.Inputs(List.of("a b", "c"), null, false), List.of()));
        assertEquals("{\"model\":\"m\",\"input\":[\"a b\",\"c\"],\"encoding_format\":\"float\"}", b.toString());
    }

    @Test
    void shouldRankDocumentsAgainstTheQueryInTheCommonShapeAndTeis()
    {
        final BodyShape.Inputs docs = new BodyShape.Inputs(List.of("a", "b"), "q", false);
        assertEquals("{\"model\":\"m\",\"query\":\"q\",\"documents\":[\"a\",\"b\"]}", Api.RERANK.shape().body(
            new BodyShape.Request("m", null, null, 0, DECODING, null, docs, List.of())).toString());
        final ObjectNode tei = Api.RERANK.shape().body(new BodyShape.Request("m", null, null, 0, DECODING, null,
            new BodyShape.Inputs(List.of("a", "b"), "q", true), List.of()));
        assertEquals("{\"query\":\"q\",\"texts\":[\"a\",\"b\"]}", tei.toString());
        assertFalse(tei.has("model"), "TEI serves one model");
    }
}
