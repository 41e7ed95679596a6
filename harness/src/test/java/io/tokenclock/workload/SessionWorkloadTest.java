package io.tokenclock.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.load.BuiltRequest;
import io.tokenclock.load.TurnResult;
import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/** Multi-turn sessions carry their history, and each turn's prompt-length hint counts all of it. */
final class SessionWorkloadTest
{
    private static SessionWorkload sessions()
    {
        return new SessionWorkload(3, new RequestBodyFactory(true, "m", 0, false, null, null), new WordTokenizer(),
            new Fixed(12), new Fixed(5), 0, new Fixed(3), new Fixed(100), 2);
    }

    @Test
    void shouldHintTheWholeConversationsTokensNotJustTheNewMessage()
    {
        final SessionWorkload w = sessions();

        final BuiltRequest first = w.nextTurn(0, null, 0);
        final BuiltRequest second = w.nextTurn(0, new TurnResult(true, "four words of answer", List.of(), "stop", 1),
            2);
        final BuiltRequest third = w.nextTurn(0, new TurnResult(true, "two words", List.of(), "stop", 3), 4);

        assertEquals(12, first.promptTokensHint());
        assertEquals(12 + 4 + 12, second.promptTokensHint());
        assertEquals(12 + 4 + 12 + 2 + 12, third.promptTokensHint());
    }

    @Test
    void shouldStartAFreshConversationAfterTheLastTurnOrAFailedAnswer()
    {
        final SessionWorkload w = sessions();
        w.nextTurn(1, null, 0);
        w.nextTurn(1, new TurnResult(true, "a b", List.of(), "stop", 1), 2);
        w.nextTurn(1, new TurnResult(true, "c d", List.of(), "stop", 3), 4);

        final BuiltRequest fourth = w.nextTurn(1, new TurnResult(true, "e f", List.of(), "stop", 5), 6);
        final BuiltRequest afterFailure = w.nextTurn(1, new TurnResult(false, "", List.of(), null, 7), 8);

        assertEquals(12, fourth.promptTokensHint(), "three turns per session: the fourth opens a new one");
        assertEquals(12, afterFailure.promptTokensHint(), "a failed answer ends the conversation");
        assertEquals(0, fourth.group());
    }
}
