package io.tokenclock.workload.dataset;

import java.util.List;

/**
 * One session of a trace, with its turns in order and the subagents it spawns. Immutable.
 *
 * @param id      the trace's own session id (a subagent's is its parent's id, '/', its agent id).
 * @param startUs when its first turn is due, µs from the trace's start (before any speed-up).
 * @param history each turn's prompt is the history (earlier turns and the answers the server gave) followed by the
 *                turn's own tokens (Mooncake sessions); false: each turn's blocks are its whole prompt (TraceLab,
 *                Weka).
 * @param scope   the namespace of its hash ids: 0 for ids that mean the same block in every session (Mooncake), else
 *                a number of its own shared only with its subagents (TraceLab, Weka {@code hash_id_scope: local}).
 * @param layout  how its blocks cover a prompt.
 * @param turns   its turns, in order.
 * @param spawns  the subagents it starts, each after one of its turns.
 */
public record TraceSession(String id, long startUs, boolean history, long scope, BlockLayout layout,
    List<TraceTurn> turns, List<Spawn> spawns)
{
    public TraceSession
    {
        turns = List.copyOf(turns);
        spawns = List.copyOf(spawns);
    }

    /**
     * How a prompt's hash ids cover it.
     *
     * @param blockSize tokens per block.
     * @param fullOnly  true: only full blocks are hashed and the rest of the prompt (fewer than {@code blockSize}
     *                  tokens) is text of its own (Weka, TraceLab); false: every token is in a block and the last block
     *                  may be partial (Mooncake, AIPerf).
     */
    public record BlockLayout(int blockSize, boolean fullOnly)
    {
        /** @return how many hash ids a prompt of {@code inputLength} tokens has under this layout. */
        public int blocks(final int inputLength)
        {
            return fullOnly ? inputLength / blockSize : (inputLength + blockSize - 1) / blockSize;
        }

        /** @return the tokens of block {@code k} of a prompt of {@code inputLength} tokens. */
        public int blockTokens(final int k, final int inputLength)
        {
            return Math.min(blockSize, inputLength - k * blockSize);
        }
    }

    /**
     * A subagent a session starts beside itself: due {@code delayUs} after turn {@code afterTurn} of its parent ended
     * (or after the parent's start, when {@code afterTurn} is -1), it then runs its own turns, while the parent goes
     * on.
     *
     * @param afterTurn the parent's turn it follows, or -1.
     * @param delayUs   µs after that turn ended (before any speed-up).
     * @param child     its own session (its {@code startUs} unused).
     */
    public record Spawn(int afterTurn, long delayUs, TraceSession child)
    {
    }
}
