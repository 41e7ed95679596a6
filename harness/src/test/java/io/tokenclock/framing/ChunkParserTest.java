package io.tokenclock.framing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenclock.fixtures.RecordedStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChunkParserTest
{
    /** Bytes put before each payload, so that reported offsets must be absolute positions in the source array. */
    private static final String PREFIX = "xx{\"";

    private final ChunkParser parser = new ChunkParser();
    private byte[] src;

    @Test
    void shouldExtractChatContentAsRawEscapedBytes()
    {
        final String raw = "say \\\"hi\\\"\\n\\u00e9 \u6771\u4eac caf\u00e9";

        assertTrue(parse(chat("{\"content\":\"" + raw + "\"}", "null")));

        assertEquals(raw, content());
        assertEquals(raw.getBytes(StandardCharsets.UTF_8).length, parser.contentLength());
        assertTrue(parser.isContentBearing());
        assertTrue(parser.isOutputBearing());
        assertFalse(parser.isDone());
        assertFalse(parser.isError());
        assertEquals(-1, parser.toolCallsOffset());
        assertEquals(-1, parser.reasoningOffset());
        assertEquals(ChunkParser.FINISH_NONE, parser.finishReason());
    }

    @Test
    void shouldEndStringAtUnescapedQuoteOnly()
    {
        assertTrue(parse(chat("{\"content\":\"back\\\\\",\"role\":\"x\\\\\\\"y\"}", "null")));

        assertEquals("back\\\\", content());
    }

    @Test
    void shouldNotCountRoleOnlyChunkAsContentBearing()
    {
        assertTrue(parse(chat("{\"role\":\"assistant\",\"content\":\"\"}", "null")));

        assertEquals(0, parser.contentLength());
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isOutputBearing());
    }

    @Test
    void shouldNotCountRoleOnlyChunkWithoutContentAsContentBearing()
    {
        assertTrue(parse(chat("{\"role\":\"assistant\"}", "null")));

        assertEquals(-1, parser.contentOffset());
        assertFalse(parser.isContentBearing());
    }

    @Test
    void shouldReadUsageFromUsageOnlyChunkWithoutCountingItAsContentBearing()
    {
        assertTrue(parse("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[]," +
            "\"usage\":{\"prompt_tokens\":14,\"completion_tokens\":9,\"total_tokens\":23," +
            "\"prompt_tokens_details\":{\"cached_tokens\":0}}}"));

        assertEquals(14, parser.promptTokens());
        assertEquals(9, parser.completionTokens());
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isOutputBearing());
        assertEquals(ChunkParser.FINISH_NONE, parser.finishReason());
    }

    @Test
    void shouldReadUsageInAnyFieldOrder()
    {
        assertTrue(parse("{\"usage\":{\"completion_tokens\":7,\"total_tokens\":27,\"prompt_tokens\":20}," +
            "\"choices\":[]}"));

        assertEquals(20, parser.promptTokens());
        assertEquals(7, parser.completionTokens());
    }

    @Test
    void shouldReportAbsentUsageAsMinusOne()
    {
        assertTrue(parse(chat("{\"content\":\"a\"}", "null")));
        assertEquals(-1, parser.promptTokens());
        assertEquals(-1, parser.completionTokens());

        assertTrue(parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":null,\"completion_tokens\":12}}"));
        assertEquals(-1, parser.promptTokens());
        assertEquals(12, parser.completionTokens());

        assertTrue(parse("{\"choices\":[],\"usage\":{}}"));
        assertEquals(-1, parser.promptTokens());
        assertEquals(-1, parser.completionTokens());
    }

    @Test
    void shouldCountReasoningContentAsContentBearingButNotOutputBearing()
    {
        assertTrue(parse(chat("{\"reasoning_content\":\"Okay, 2+2\"}", "null")));

        assertEquals("Okay, 2+2", reasoning());
        assertTrue(parser.isContentBearing());
        assertFalse(parser.isOutputBearing());
        assertEquals(-1, parser.contentOffset());
    }

    @Test
    void shouldCountReasoningAsContentBearingButNotOutputBearing()
    {
        assertTrue(parse(chat("{\"reasoning\":\" is \\\"4\\\"\"}", "null")));

        assertEquals(" is \\\"4\\\"", reasoning());
        assertTrue(parser.isContentBearing());
        assertFalse(parser.isOutputBearing());
    }

    @Test
    void shouldNotCountEmptyOrNullReasoning()
    {
        assertTrue(parse(chat("{\"reasoning_content\":\"\",\"content\":null}", "null")));
        assertFalse(parser.isContentBearing());

        assertTrue(parse(chat("{\"reasoning\":null}", "null")));
        assertEquals(-1, parser.reasoningOffset());
        assertFalse(parser.isContentBearing());
    }

    @Test
    void shouldReportBothContentAndReasoningWhenChunkCarriesBoth()
    {
        assertTrue(parse(chat("{\"reasoning_content\":\"think\",\"content\":\"say\"}", "null")));

        assertEquals("think", reasoning());
        assertEquals("say", content());
        assertTrue(parser.isContentBearing());
        assertTrue(parser.isOutputBearing());
    }

    @Test
    void shouldCountNonEmptyToolCallsAsContentAndOutputBearing()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\"," +
            "\"type\":\"function\",\"function\":{\"name\":\"get_weather\"," +
            "\"arguments\":\"{\\\"city\\\": \\\"Paris\\\"}\"}}]},\"finish_reason\":null}]}"));

        assertTrue(parser.toolCallsLength() > 0);
        assertTrue(parser.isContentBearing());
        assertTrue(parser.isOutputBearing());
        assertEquals(-1, parser.contentOffset());
        assertEquals(-1, parser.idOffset(), "a tool call's id is not the response id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "[ ]", "[\n]", "null"})
    void shouldNotCountEmptyOrNullToolCalls(final String toolCalls)
    {
        assertTrue(parse(chat("{\"content\":\"\",\"tool_calls\":" + toolCalls + "}", "null")));

        assertEquals(-1, parser.toolCallsOffset());
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isOutputBearing());
    }

    @Test
    void shouldExtractCompletionsText()
    {
        assertTrue(parse("{\"id\":\"cmpl-7\",\"object\":\"text_completion\",\"choices\":[{\"index\":0," +
            "\"text\":\" the quick brown\",\"logprobs\":null,\"finish_reason\":null,\"matched_stop\":null}]," +
            "\"usage\":null}"));

        assertEquals(" the quick brown", content());
        assertTrue(parser.isContentBearing());
        assertTrue(parser.isOutputBearing());
        assertEquals("cmpl-7", id());
    }

    @Test
    void shouldTreatNullOrEmptyCompletionsTextAsAbsent()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"text\":null,\"finish_reason\":\"length\"}]}"));
        assertEquals(-1, parser.contentOffset());
        assertFalse(parser.isContentBearing());
        assertEquals(ChunkParser.FINISH_LENGTH, parser.finishReason());

        assertTrue(parse("{\"choices\":[{\"index\":0,\"text\":\"\"}]}"));
        assertFalse(parser.isContentBearing());
    }

    @ParameterizedTest
    @CsvSource({
        "'\"stop\"', 1",
        "'\"length\"', 2",
        "'\"tool_calls\"', 3",
        "'\"content_filter\"', 4",
        "'\"abort\"', 5",
        "'\"eos_token\"', 5",
        "'\"\"', 5",
        "'\"Stop\"', 5",
        "'\"stops\"', 5",
        "'null', 0"
    })
    void shouldClassifyFinishReason(final String json, final int expected)
    {
        assertTrue(parse(chat("{}", json)));

        assertEquals(expected, parser.finishReason());
    }

    @Test
    void shouldNameFinishConstantsDistinctly()
    {
        assertEquals(List.of(0, 1, 2, 3, 4, 5), List.of(ChunkParser.FINISH_NONE, ChunkParser.FINISH_STOP,
            ChunkParser.FINISH_LENGTH, ChunkParser.FINISH_TOOL_CALLS, ChunkParser.FINISH_CONTENT_FILTER,
            ChunkParser.FINISH_OTHER));
    }

    @Test
    void shouldReportNoFinishReasonWhenAbsent()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}"));

        assertEquals(ChunkParser.FINISH_NONE, parser.finishReason());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[DONE]", " [DONE]", "[DONE]\n", "\t [DONE] \r\n", "\n[DONE]\n\n"})
    void shouldRecogniseDoneSentinelWithSurroundingWhitespace(final String payload)
    {
        assertTrue(parse(payload));

        assertTrue(parser.isDone());
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isError());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[DONE]x", "[DONE] [DONE]", "[DONE", "[done]", "DONE", "[DONE]}"})
    void shouldRejectNearMissesOfDoneSentinel(final String payload)
    {
        assertFalse(parse(payload));

        assertFalse(parser.isDone());
    }

    @Test
    void shouldFlagTopLevelErrorObject()
    {
        assertTrue(parse("{\"error\": {\"object\": \"error\", \"message\": \"The engine {failed}\", " +
            "\"type\": \"InternalServerError\", \"param\": null, \"code\": 500}}"));

        assertTrue(parser.isError());
        assertFalse(parser.isContentBearing());
    }

    @Test
    void shouldFlagTopLevelErrorAlongsideChoices()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}],\"error\":{\"message\":\"m\"}}"));

        assertTrue(parser.isError());
        assertEquals("x", content());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"id\":\"a\",\"error\":null,\"choices\":[]}",
        "{\"id\":\"a\",\"error\" : null}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"error\":{\"message\":\"nested\"}},\"error\":{}}]}",
        "{\"usage\":{\"error\":{}},\"meta\":{\"error\":{\"code\":1}}}"
    })
    void shouldNotFlagNullOrNestedError(final String payload)
    {
        assertTrue(parse(payload));

        assertFalse(parser.isError());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "   ",
        "hello",
        "null",
        "[]",
        "42",
        "\"text\"",
        "{",
        "{\"id\":\"x\"",
        "{\"id\":\"x\",",
        "{\"id\":\"x\",}",
        "{\"id\" \"x\"}",
        "{\"id\":}",
        "{\"id\":\"unterminated}",
        "{\"id\":\"ends in backslash\\",
        "{id:\"x\"}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":42}}]}",
        "{\"choices\":[{\"index\":0,\"text\":true}]}",
        "{\"choices\":[{\"index\":0,\"finish_reason\":1}]}",
        "{\"choices\":{\"index\":0}}",
        "{\"choices\":[\"not an object\"]}",
        "{\"usage\":[1,2]}",
        "{\"id\":\"x\"} trailing",
        "{\"id\":\"x\"}}",
        "{\"id\":\"x\"}{\"id\":\"y\"}",
        "{\"id\":\"x\"},",
        "{\"a\":[1,2,{\"b\":\"}\"}]",
        "{\"a\":nul}",
        "{\"a\":+1}",
        "{\"a\":@}",
        "{\"logprobs\":{\"content\":[{\"token\":\"}]\"}]}"
    })
    void shouldRejectMalformedInput(final String payload)
    {
        assertFalse(parse(payload), payload);
        assertFalse(parser.isDone());
    }

    @Test
    void shouldSkipUnknownNestedFieldsHoldingBracesAndQuotesInStrings()
    {
        final String payload = "{\"system_fingerprint\":\"fp_{[\\\"\",\"x_meta\":{\"a\":[{\"b\":\"]}\"},[],{}]," +
            "\"c\":\"\\\\\",\"d\":[true,false,null,-1.5e-3,2E+10]},\"id\":\"chatcmpl-42\",\"choices\":[{" +
            "\"index\":0,\"logprobs\":{\"content\":[{\"token\":\"}\\\"{\",\"logprob\":-0.01,\"bytes\":[125,34,123]," +
            "\"top_logprobs\":[{\"token\":\"]\",\"logprob\":-2.5}]}]},\"delta\":{\"x_unknown\":{\"content\":\"no\"}," +
            "\"content\":\"yes\",\"refusal\":null},\"finish_reason\":\"stop\",\"stop_reason\":[\"\\\"]\"]}]," +
            "\"usage\":{\"details\":{\"prompt_tokens\":99},\"prompt_tokens\":3,\"completion_tokens\":4}}";

        assertTrue(parse(payload));

        assertEquals("yes", content());
        assertEquals("chatcmpl-42", id());
        assertEquals(ChunkParser.FINISH_STOP, parser.finishReason());
        assertEquals(3, parser.promptTokens());
        assertEquals(4, parser.completionTokens());
    }

    @Test
    void shouldNotTakeLogprobsContentAsDeltaContent()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":{\"content\":[{\"token\":\"t\"}]," +
            "\"text\":null}}]}"));

        assertEquals(-1, parser.contentOffset());
        assertFalse(parser.isContentBearing());
    }

    @Test
    void shouldAcceptWhitespaceEverywhereJsonAllowsIt()
    {
        assertTrue(parse(" \n{ \"id\" : \"c-1\" ,\r\n \"choices\" : [ { \"index\" : 0 , \"delta\" : { \"content\" " +
            ": \"hi\" } , \"finish_reason\" : \"length\" } ] , \"usage\" : { \"prompt_tokens\" : 5 , " +
            "\"completion_tokens\" : 6 } }\t\n"));

        assertEquals("c-1", id());
        assertEquals("hi", content());
        assertEquals(ChunkParser.FINISH_LENGTH, parser.finishReason());
        assertEquals(5, parser.promptTokens());
        assertEquals(6, parser.completionTokens());
    }

    @Test
    void shouldExtractId()
    {
        assertTrue(parse("{\"object\":\"chat.completion.chunk\",\"id\":\"chatcmpl-9xTk\",\"choices\":[]}"));

        assertEquals("chatcmpl-9xTk", id());
        assertEquals("chatcmpl-9xTk".length(), parser.idLength());
    }

    @Test
    void shouldReportAbsentOrNonStringIdAsMinusOne()
    {
        assertTrue(parse("{\"choices\":[]}"));
        assertEquals(-1, parser.idOffset());

        assertTrue(parse("{\"id\":123,\"choices\":[]}"));
        assertEquals(-1, parser.idOffset());

        assertTrue(parse("{\"id\":null,\"choices\":[]}"));
        assertEquals(-1, parser.idOffset());
    }

    @Test
    void shouldTreatNullContentAsAbsent()
    {
        assertTrue(parse(chat("{\"role\":\"assistant\",\"content\":null}", "null")));

        assertEquals(-1, parser.contentOffset());
        assertEquals(0, parser.contentLength());
        assertFalse(parser.isContentBearing());
    }

    @Test
    void shouldTolerateNullChoicesDeltaAndUsage()
    {
        assertTrue(parse("{\"choices\":null,\"usage\":null}"));
        assertFalse(parser.isContentBearing());

        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":null,\"finish_reason\":\"stop\"}]}"));
        assertEquals(ChunkParser.FINISH_STOP, parser.finishReason());

        assertTrue(parse("{}"));
        assertTrue(parse("{\"choices\":[{}]}"));
    }

    @Test
    void shouldReadOnlyFirstChoice()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"first\"},\"finish_reason\":null}," +
            "{\"index\":1,\"delta\":{\"content\":\"second\",\"tool_calls\":[{}]},\"finish_reason\":\"length\"}]}"));

        assertEquals("first", content());
        assertEquals(-1, parser.toolCallsOffset());
        assertEquals(ChunkParser.FINISH_NONE, parser.finishReason());
    }

    @Test
    void shouldNotTakeContentFromLaterChoiceWhenFirstHasNone()
    {
        assertTrue(parse("{\"choices\":[{\"index\":0,\"delta\":{}}," +
            "{\"index\":1,\"delta\":{\"content\":\"second\"}},{\"index\":2,\"text\":\"third\"}]}"));

        assertEquals(-1, parser.contentOffset());
        assertFalse(parser.isContentBearing());
    }

    @Test
    void shouldClearStateBetweenParses()
    {
        assertTrue(parse("{\"id\":\"a\",\"error\":{},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"," +
            "\"reasoning_content\":\"r\",\"tool_calls\":[{}]},\"finish_reason\":\"stop\"}]," +
            "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}"));
        assertTrue(parser.isError());
        assertTrue(parser.toolCallsLength() > 0);

        assertTrue(parse("{\"choices\":[],\"timings\":{\"prompt_ms\":1.5,\"predicted_n\":3,\"predicted_ms\":2}}"));
        assertEquals(3, parser.enginePredictedTokens());
        assertTrue(parse("{\"choices\":[]}"));
        assertAllCleared();

        assertFalse(parse("{\"id\":\"a\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}"));

        assertTrue(parse("[DONE]"));
        assertTrue(parser.isDone());

        assertTrue(parse("{}"));
        assertAllCleared();
    }

    @Test
    void shouldReportOffsetsIntoCallerArrayWhenParsingFromAnOffset()
    {
        final String payload = "{\"id\":\"i\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"c\"}}]}";
        final byte[] bytes = ("garbage{" + payload + "}garbage").getBytes(StandardCharsets.UTF_8);

        assertTrue(parser.parse(bytes, 8, payload.length()));

        assertEquals("c", new String(bytes, parser.contentOffset(), parser.contentLength(), StandardCharsets.UTF_8));
        assertEquals("i", new String(bytes, parser.idOffset(), parser.idLength(), StandardCharsets.UTF_8));
    }

    @Test
    void shouldParseEveryRecordedStreamIntoItsReadmeText() throws IOException
    {
        expectStream("openai-chat.sse", "Hello there! She said \"hi\" from\n\u6771\u4eac caf\u00e9.", 6, "", 0,
            14, 9, ChunkParser.FINISH_STOP, 0, "chatcmpl-9xTkC1oQv4hZpR2mB7eLdW3sAaYnF");
        expectStream("vllm-chat-crlf.sse", "The answer is \"42\".\n Gr\u00fc\u00dfe", 6, "", 0,
            20, 7, ChunkParser.FINISH_STOP, 0, "chatcmpl-4f1e8c2a9b7d4e6f8a0b1c2d3e4f5a6b");
        expectStream("sglang-completions.sse", " the quick brown fox jumps over the lazy dog.", 5, "", 0,
            8, 10, ChunkParser.FINISH_LENGTH, 0, "b6c1d2e3f4a5469788990a1b2c3d4e5f");
        expectStream("reasoning-chat.sse", "The answer is 4.", 4, "Okay, 2+2 is 4.", 3,
            11, 13, ChunkParser.FINISH_STOP, 0, "chatcmpl-7a8b9c0d1e2f4a3b8c5d6e7f8a9b0c1d");
        expectStream("error-midstream.sse", "Once upon", 2, "", 0,
            -1, -1, ChunkParser.FINISH_NONE, 1, "chatcmpl-0e1d2c3b4a5f46e7a8b9c0d1e2f3a4b5");
        expectStream("llamacpp-chat.sse", "Hello, world!", 4, "", 0,
            12, 4, ChunkParser.FINISH_STOP, 0, "chatcmpl-3nVq7KcR0aPz1xYbM8dT5wLhG2sJuE4f");
    }

    @Test
    void shouldReadLlamaCppTimingsFromTheLastChunkAsNanoseconds()
    {
        final String last = new String(RecordedStreams.load("llamacpp-chat.sse"), StandardCharsets.UTF_8)
            .split("\n\n")[5].substring("data: ".length());

        assertTrue(parse(last));

        assertEquals(31_402_000, parser.enginePromptNs());
        assertEquals(45_609_000, parser.engineDecodeNs());
        assertEquals(4, parser.enginePredictedTokens());
        assertEquals(4, parser.completionTokens());
        assertEquals(ChunkParser.FINISH_STOP, parser.finishReason());
        assertFalse(parser.isContentBearing());
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "12, 12000000",
        "42.771, 42771000",
        "2.6168333333333336, 2616833",
        "0.0000005, 1",
        "0.0000004, 0",
        "1.5e-3, 1500",
        "1E2, 100000000",
        "2.5E+1, 25000000",
        "123456789012345678901234.5, 9223372036854775807",
        "0.000000000000000000000000001, 0",
    })
    void shouldReadMillisecondsAsNanosecondsRoundedToTheNearest(final String ms, final long ns)
    {
        assertTrue(parse("{\"timings\":{\"prompt_ms\":" + ms + ",\"predicted_ms\":" + ms + "}}"));

        assertEquals(ns, parser.enginePromptNs(), ms);
        assertEquals(ns, parser.engineDecodeNs(), ms);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"timings\":{\"prompt_ms\":-1.5,\"predicted_ms\":\"12\",\"predicted_n\":null}}",
        "{\"timings\":null}",
        "{\"timings\":{}}",
        "{\"choices\":[{\"timings\":{\"prompt_ms\":3}}]}",
        "{\"usage\":{\"prompt_ms\":3,\"predicted_ms\":4,\"predicted_n\":5}}",
    })
    void shouldReportMissingNegativeOrMisplacedTimingsAsMinusOne(final String payload)
    {
        assertTrue(parse(payload));

        assertEquals(-1, parser.enginePromptNs());
        assertEquals(-1, parser.engineDecodeNs());
        assertEquals(-1, parser.enginePredictedTokens());
    }

    @Test
    void shouldSkipTimingsFieldsItDoesNotReadWhateverTheirShape()
    {
        assertTrue(parse("{\"timings\":{\"prompt_n\":9,\"prompt_per_second\":1e400,\"draft\":{\"n\":[1,2]}," +
            "\"predicted_n\":7,\"predicted_ms\":8.25},\"choices\":[]}"));

        assertEquals(-1, parser.enginePromptNs());
        assertEquals(8_250_000, parser.engineDecodeNs());
        assertEquals(7, parser.enginePredictedTokens());
    }

    private void expectStream(
        final String name,
        final String text,
        final int contentChunks,
        final String reasoningText,
        final int reasoningChunks,
        final long promptTokens,
        final long completionTokens,
        final int finishReason,
        final int errorChunks,
        final String id) throws IOException
    {
        final List<byte[]> events = new ArrayList<>();
        final SseFramer framer = new SseFramer(
            (data, offset, length, errorType, ns) -> events.add(Arrays.copyOfRange(data, offset, offset + length)));
        final byte[] stream = RecordedStreams.load(name);
        framer.onBytes(stream, 0, stream.length, 1);
        framer.onEndOfStream(2);

        final ByteArrayOutputStream rawText = new ByteArrayOutputStream();
        final ByteArrayOutputStream rawReasoning = new ByteArrayOutputStream();
        int seenContent = 0;
        int seenReasoning = 0;
        int seenErrors = 0;
        int seenFinish = ChunkParser.FINISH_NONE;
        long seenPrompt = -1;
        long seenCompletion = -1;
        String seenId = null;
        for (int i = 0; i < events.size(); i++)
        {
            final byte[] event = events.get(i);
            assertTrue(parser.parse(event, 0, event.length), name + " event " + i);
            assertEquals(i == events.size() - 1, parser.isDone(), name + " event " + i);
            if (parser.contentLength() > 0)
            {
                assertTrue(parser.isContentBearing());
                rawText.write(event, parser.contentOffset(), parser.contentLength());
                seenContent++;
            }
            if (parser.reasoningLength() > 0)
            {
                assertTrue(parser.isContentBearing());
                rawReasoning.write(event, parser.reasoningOffset(), parser.reasoningLength());
                seenReasoning++;
            }
            seenErrors += parser.isError() ? 1 : 0;
            seenFinish = parser.finishReason() != ChunkParser.FINISH_NONE ? parser.finishReason() : seenFinish;
            seenPrompt = parser.promptTokens() >= 0 ? parser.promptTokens() : seenPrompt;
            seenCompletion = parser.completionTokens() >= 0 ? parser.completionTokens() : seenCompletion;
            if (seenId == null && parser.idOffset() >= 0)
            {
                seenId = new String(event, parser.idOffset(), parser.idLength(), StandardCharsets.UTF_8);
            }
        }

        assertEquals(text, decodeJsonString(rawText.toByteArray()), name);
        assertEquals(contentChunks, seenContent, name);
        assertEquals(reasoningText, decodeJsonString(rawReasoning.toByteArray()), name);
        assertEquals(reasoningChunks, seenReasoning, name);
        assertEquals(promptTokens, seenPrompt, name);
        assertEquals(completionTokens, seenCompletion, name);
        assertEquals(finishReason, seenFinish, name);
        assertEquals(errorChunks, seenErrors, name);
        assertEquals(id, seenId, name);
    }

    private static String decodeJsonString(final byte[] raw) throws IOException
    {
        final byte[] quoted = new byte[raw.length + 2];
        quoted[0] = '"';
        System.arraycopy(raw, 0, quoted, 1, raw.length);
        quoted[quoted.length - 1] = '"';
        return new ObjectMapper().readValue(quoted, String.class);
    }

    private void assertAllCleared()
    {
        assertFalse(parser.isDone());
        assertFalse(parser.isError());
        assertEquals(-1, parser.toolCallsOffset());
        assertFalse(parser.isContentBearing());
        assertEquals(ChunkParser.FINISH_NONE, parser.finishReason());
        assertEquals(-1, parser.idOffset());
        assertEquals(0, parser.idLength());
        assertEquals(-1, parser.contentOffset());
        assertEquals(0, parser.contentLength());
        assertEquals(-1, parser.reasoningOffset());
        assertEquals(0, parser.reasoningLength());
        assertEquals(-1, parser.promptTokens());
        assertEquals(-1, parser.completionTokens());
        assertEquals(-1, parser.enginePromptNs());
        assertEquals(-1, parser.engineDecodeNs());
        assertEquals(-1, parser.enginePredictedTokens());
        assertEquals(-1, parser.cachedTokens());
        assertEquals(-1, parser.engineDraftTokens());
        assertEquals(-1, parser.engineDraftAccepted());
    }

    @Test
    void shouldReadTheCachedPromptTokensOutOfTheUsageDetails()
    {
        assertTrue(parse("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[]," +
            "\"usage\":{\"prompt_tokens\":2006,\"completion_tokens\":300,\"total_tokens\":2306," +
            "\"prompt_tokens_details\":{\"audio_tokens\":null,\"cached_tokens\":1920}}}"));

        assertEquals(1920, parser.cachedTokens());
        assertEquals(2006, parser.promptTokens());
        assertEquals(300, parser.completionTokens());
    }

    @Test
    void shouldLeaveTheCachedTokensUnknownWhenTheServerSentNoDetails()
    {
        assertTrue(parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":1}}"));
        assertEquals(-1, parser.cachedTokens());

        assertTrue(parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"prompt_tokens_details\":null}}"));
        assertEquals(-1, parser.cachedTokens());

        assertTrue(parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"prompt_tokens_details\":{}}}"));
        assertEquals(-1, parser.cachedTokens());

        assertTrue(parse("{\"choices\":[],\"usage\":{\"prompt_tokens_details\":{\"cached_tokens\":0}}}"));
        assertEquals(0, parser.cachedTokens(), "zero is an answer: nothing was cached");
    }

    @Test
    void shouldReadLlamaCppsSpeculativeDraftsOutOfItsTimings()
    {
        // llama.cpp's server (tools/server/server-task.cpp, result_timings::to_json) at commit d32676d77: draft_n and
        // draft_n_accepted only when a draft model ran; its usage carries prompt_tokens_details.cached_tokens.
        assertTrue(parse("{\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}]," +
            "\"created\":1755500000,\"id\":\"chatcmpl-x\",\"model\":\"m\",\"object\":\"chat.completion.chunk\"," +
            "\"usage\":{\"completion_tokens\":32,\"prompt_tokens\":40,\"total_tokens\":72," +
            "\"prompt_tokens_details\":{\"cached_tokens\":32}},\"timings\":{\"cache_n\":32,\"prompt_n\":8," +
            "\"prompt_ms\":4.5,\"prompt_per_token_ms\":0.56,\"prompt_per_second\":1777.7,\"predicted_n\":32," +
            "\"predicted_ms\":40.1,\"predicted_per_token_ms\":1.25,\"predicted_per_second\":798.0," +
            "\"draft_n\":48,\"draft_n_accepted\":27}}"));

        assertEquals(48, parser.engineDraftTokens());
        assertEquals(27, parser.engineDraftAccepted());
        assertEquals(32, parser.cachedTokens());
        assertEquals(32, parser.enginePredictedTokens());
    }

    private static String chat(final String delta, final String finishReason)
    {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1718000000,\"model\":\"m\"," +
            "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":" + finishReason +
            "}],\"usage\":null}";
    }

    /** Parses {@code payload} placed after {@link #PREFIX} in a larger array, as the framer's buffer would hold it. */
    private boolean parse(final String payload)
    {
        final byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        final byte[] pre = PREFIX.getBytes(StandardCharsets.US_ASCII);
        src = new byte[pre.length + p.length + 3];
        System.arraycopy(pre, 0, src, 0, pre.length);
        System.arraycopy(p, 0, src, pre.length, p.length);
        src[src.length - 3] = '}';
        src[src.length - 2] = '"';
        src[src.length - 1] = ']';
        return parser.parse(src, pre.length, p.length);
    }

    private String content()
    {
        assertTrue(parser.contentOffset() >= 0, "content present");
        return new String(src, parser.contentOffset(), parser.contentLength(), StandardCharsets.UTF_8);
    }

    private String reasoning()
    {
        assertTrue(parser.reasoningOffset() >= 0, "reasoning present");
        return new String(src, parser.reasoningOffset(), parser.reasoningLength(), StandardCharsets.UTF_8);
    }

    private String id()
    {
        assertTrue(parser.idOffset() >= 0, "id present");
        return new String(src, parser.idOffset(), parser.idLength(), StandardCharsets.UTF_8);
    }
}
