package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import io.tokenclock.api.Api;

/**
 * Embeddings and rerank answers under jqwik: any number of items of any size, cut into any reads, are counted the
 * same and carry the same usage; bytes flipped or cut never throw, and the request ends with one class.
 */
final class PoolingAnswerProperties
{
    private static final List<Object[]> ANSWERS = List.of(
        new Object[] {Api.EMBEDDINGS, PoolingAnswerTest.EMBEDDINGS_OPENAI, 2},
        new Object[] {Api.EMBEDDINGS, PoolingAnswerTest.EMBEDDINGS_LLAMA, 3},
        new Object[] {Api.RERANK, PoolingAnswerTest.RERANK_VLLM, 2},
        new Object[] {Api.RERANK, PoolingAnswerTest.RERANK_COHERE, 4},
        new Object[] {Api.RERANK, PoolingAnswerTest.RERANK_TEI, 2});

    @Provide
    Arbitrary<int[]> cuts()
    {
        return Arbitraries.integers().between(0, Integer.MAX_VALUE).list().ofMaxSize(40).map(list ->
            list.stream().mapToInt(Integer::intValue).toArray());
    }

    private static int[] positions(final int[] raw, final int length)
    {
        final TreeSet<Integer> positions = new TreeSet<>();
        for (final int r : raw)
        {
            positions.add(1 + r % (length - 1));
        }
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    @Property(tries = 300)
    void shouldCountAnyAnswerTheSameHoweverReadsCutIt(@ForAll("cuts") final int[] raw,
        @ForAll @IntRange(min = 1, max = 40) final int items, @ForAll @IntRange(min = 0, max = 50) final int dims,
        @ForAll @IntRange(min = 0, max = 100_000) final int tokens) throws InterruptedException
    {
        final StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < items; i++)
        {
            sb.append(i == 0 ? "" : ", ").append("{\"object\":\"embedding\",\"index\":").append(i)
                .append(",\"embedding\":[");
            for (int d = 0; d < dims; d++)
            {
                sb.append(d == 0 ? "" : ",").append(d % 3 == 0 ? "-1.5e-3" : d % 3 == 1 ? "[0]" : "\"]\\\"[\"");
            }
            sb.append("]}");
        }
        sb.append("],\"usage\":{\"prompt_tokens\":").append(tokens).append("}}");
        final String body = sb.toString();
        final StreamReplay.Seen seen = new StreamReplay(Api.EMBEDDINGS).inputs(items)
            .replay(body, positions(raw, body.length()));

        assertEquals(ErrorClass.NONE, seen.error(), seen.detail());
        assertEquals(items, seen.answerItems());
        assertEquals(tokens, seen.promptTokens());
    }

    @Property(tries = 300)
    void shouldEndAMangledAnswerWithOneClassAndNeverThrow(@ForAll("cuts") final int[] raw,
        @ForAll @IntRange(min = 0, max = 4) final int which, @ForAll @IntRange(min = 0, max = 10_000) final int at,
        @ForAll final byte flip, @ForAll @IntRange(min = 0, max = 10_000) final int keep) throws InterruptedException
    {
        final byte[] bytes = ((String)ANSWERS.get(which)[1]).getBytes(StandardCharsets.UTF_8);
        bytes[at % bytes.length] = flip;
        final byte[] cut = java.util.Arrays.copyOf(bytes, 1 + keep % bytes.length);
        final StreamReplay.Seen seen = new StreamReplay((Api)ANSWERS.get(which)[0]).inputs((int)ANSWERS.get(which)[2])
            .replay(cut, positions(raw, Math.max(2, cut.length)));

        assertEquals(seen.error() == ErrorClass.NONE ? RequestSlot.STATUS_OK : RequestSlot.STATUS_ERROR, seen.status(),
            seen.error() + " " + seen.detail());
    }

    @Property(tries = 100)
    void shouldCountEveryKnownAnswerAsItsInputs(@ForAll("cuts") final int[] raw,
        @ForAll @IntRange(min = 0, max = 4) final int which) throws InterruptedException
    {
        final String body = (String)ANSWERS.get(which)[1];
        final int inputs = (int)ANSWERS.get(which)[2];
        final StreamReplay.Seen seen = new StreamReplay((Api)ANSWERS.get(which)[0]).inputs(inputs)
            .replay(body, positions(raw, body.getBytes(StandardCharsets.UTF_8).length));
        assertEquals(ErrorClass.NONE, seen.error(), seen.detail());
        assertEquals(inputs, seen.answerItems());
    }
}
