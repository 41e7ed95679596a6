package io.tokenclock.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;
import io.tokenclock.api.BodyShape;
import io.tokenclock.json.Json;
import io.tokenclock.load.TurnResult;
import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/**
 * A user session's turns with images, in each API's shape: every turn its own images, a later turn resending the
 * earlier user messages with their images and the answers between them, the same bytes from the same seed.
 */
final class SessionImagesTest
{
    private static final ImageSpec TWO = new ImageSpec(2, 32, 16, ImageFormat.PNG);

    private static SessionWorkload sessions(final Api api, final long seed)
    {
        return new SessionWorkload(seed, new RequestBodyFactory(api, "m", 8, BodyShape.Decoding.NONE, null),
            new WordTokenizer(), new Fixed(6), null, 8, new Fixed(3), new Fixed(100), 2)
            .images(new ImageSynthesizer(TWO, seed));
    }

    private static TurnResult answer(final String text)
    {
        return new TurnResult(true, text, List.of(), "stop", 1, "resp_1", 1, 0, 2);
    }

    /** @return the conversation of a body: {@code input} on the Responses API, else {@code messages}. */
    private static JsonNode conversation(final byte[] body) throws Exception
    {
        final JsonNode root = Json.MAPPER.readTree(body);
        return root.has("input") ? root.get("input") : root.get("messages");
    }

    /** @return each message as its role, then its images' data URLs in each API's own form, read back. */
    private static List<List<String>> messages(final byte[] body) throws Exception
    {
        final List<List<String>> out = new ArrayList<>();
        for (final JsonNode m : conversation(body))
        {
            final List<String> message = new ArrayList<>();
            message.add(m.path("role").asText() + ":" + (m.path("content").isTextual() ? m.path("content").asText() :
                ""));
            for (final JsonNode part : m.path("content"))
            {
                switch (part.path("type").asText())
                {
                    case "image_url" -> message.add(part.path("image_url").path("url").asText());
                    case "input_image" -> message.add(part.path("image_url").asText());
                    case "image" -> message.add("data:" + part.path("source").path("media_type").asText() +
                        ";base64," + part.path("source").path("data").asText());
                    default ->
                    {
                    }
                }
            }
            out.add(message);
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"CHAT", "RESPONSES", "MESSAGES"})
    void shouldResendTheFirstTurnsImagesAndAnswerBeforeTheSecondTurnsOwnImages(final Api api) throws Exception
    {
        final SessionWorkload w = sessions(api, 3);

        final List<List<String>> first = messages(w.nextTurn(0, null, 0).body());
        final List<List<String>> second = messages(w.nextTurn(0, answer("the answer"), 2).body());

        assertEquals(1, first.size(), first.toString());
        assertEquals(3, first.get(0).size(), "the first turn: its text and two images");
        assertEquals(3, second.size(), second.toString());
        assertEquals(first.get(0), second.get(0), "the first user message resent with its images, byte for byte");
        assertEquals(List.of("assistant:the answer"), second.get(1), "the server's answer, no image");
        final List<String> own = second.get(2).subList(1, second.get(2).size());
        assertEquals(2, own.size(), second.get(2).toString());
        assertTrue(own.get(0).startsWith("data:image/png;base64,iVBOR"), own.get(0));
        final Set<String> all = new HashSet<>(first.get(0).subList(1, 3));
        all.addAll(own);
        assertEquals(4, all.size(), "the second turn's images are its own, not the first's");
        assertEquals(2 + 4, w.imagesSent(), "every image of every request, resent ones included");
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"CHAT", "RESPONSES", "MESSAGES"})
    void shouldSendTheSameBytesFromTheSameSeedAndOtherImagesFromAnotherSeed(final Api api)
    {
        final List<byte[]> once = turns(sessions(api, 3));
        final SessionWorkload again = sessions(api, 3);
        final List<byte[]> twice = turns(again);
        final SessionWorkload other = sessions(api, 4);
        final List<byte[]> otherSeed = turns(other);

        for (int i = 0; i < once.size(); i++)
        {
            assertArrayEquals(once.get(i), twice.get(i), "request " + i);
            assertFalse(Arrays.equals(once.get(i), otherSeed.get(i)), "request " + i);
        }
        assertEquals(hashOf(api, 3), again.hash(), "the hash covers the images' bytes and repeats");
        assertNotEquals(again.hash(), other.hash());
    }

    private static String hashOf(final Api api, final long seed)
    {
        final SessionWorkload w = sessions(api, seed);
        turns(w);
        return w.hash();
    }

    /** Two users' first sessions, three turns each, interleaved. */
    private static List<byte[]> turns(final SessionWorkload w)
    {
        final List<byte[]> bodies = new ArrayList<>();
        final TurnResult[] last = new TurnResult[2];
        for (int turn = 0; turn < 3; turn++)
        {
            for (int user = 0; user < 2; user++)
            {
                bodies.add(w.nextTurn(user, last[user], turn).body());
                last[user] = answer("answer " + turn);
            }
        }
        return bodies;
    }

    @Test
    void shouldGiveNoTwoTurnsOfAnyUserOrSessionTheSameImage()
    {
        final ImageSynthesizer images = new ImageSynthesizer(TWO, 3);
        final Set<String> seen = new HashSet<>();
        int made = 0;
        for (int user = 0; user < 3; user++)
        {
            for (int session = 0; session < 3; session++)
            {
                for (int turn = 0; turn < 3; turn++)
                {
                    for (final BodyShape.Image image : images.turnImages(user, session, turn))
                    {
                        seen.add(image.base64());
                        made++;
                    }
                }
            }
        }
        assertEquals(made, seen.size());
    }

    @Test
    void shouldCountEachTurnsImagesTimesItsTurnInAThreeTurnSession() throws Exception
    {
        final SessionWorkload w = sessions(Api.CHAT, 3);
        final List<byte[]> bodies = turns(w);

        // per user: 2, 4 and 6 images in the session's three requests
        assertEquals(2 * (2 + 4 + 6), w.imagesSent());
        assertTrue(w.imageBytesSent() > 50L * w.imagesSent(), String.valueOf(w.imageBytesSent()));
        final List<List<String>> third = messages(bodies.get(4));
        assertEquals(List.of(3, 1, 3, 1, 3), third.stream().map(List::size).toList(), third.toString());
        assertTrue(w.describe().contains("images 2 x 32x16 png per turn"), w.describe());
    }

    @Test
    void shouldSendOnlyTheTurnsOwnImagesWhenChainedByPreviousResponseId() throws Exception
    {
        final SessionWorkload w = sessions(Api.RESPONSES, 3).chain(SessionChain.PREVIOUS_RESPONSE_ID);
        final List<List<String>> first = messages(w.nextTurn(0, null, 0).body());
        final byte[] body = w.nextTurn(0, answer("the answer"), 2).body();
        final List<List<String>> second = messages(body);

        assertEquals("resp_1", Json.MAPPER.readTree(body).path("previous_response_id").asText());
        assertEquals(1, second.size(), second.toString());
        assertEquals(3, second.get(0).size());
        assertFalse(second.get(0).contains(first.get(0).get(1)), "the server holds the first turn's images");
        assertEquals(2 + 2, w.imagesSent());
    }

    @Test
    void shouldSendNoImagePartWithoutImages() throws Exception
    {
        final SessionWorkload w = new SessionWorkload(3, new RequestBodyFactory(Api.CHAT, "m", 8,
            BodyShape.Decoding.NONE, null), new WordTokenizer(), new Fixed(6), null, 8, new Fixed(3),
            new Fixed(100), 1);
        final JsonNode messages = conversation(w.nextTurn(0, null, 0).body());

        assertTrue(messages.get(0).path("content").isTextual(), "a plain text message, as before images: " +
            messages);
        assertEquals(0, w.imagesSent());
    }
}
