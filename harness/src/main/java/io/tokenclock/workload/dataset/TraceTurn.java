package io.tokenclock.workload.dataset;

/**
 * One turn of a session trace: when it is due, how long its prompt is and which blocks it is made of, and how long
 * its answer is. Immutable.
 *
 * @param index        0-based turn in its session.
 * @param line         where it was read (a line of the file, or a request of a Weka trace), for messages.
 * @param delayUs      for a later turn: how long after the previous turn ended it is due, µs (before any speed-up);
 *                     for the first turn: unused (the session's start says when).
 * @param atUs         for a later turn given an absolute time instead of a delay (a Mooncake row with a timestamp):
 *                     its time from the trace's start, µs; -1 otherwise. The turn is then due at that time, or when the
 *                     previous turn ended if that is later.
 * @param inputLength  prompt tokens the trace gives this turn: its new tokens when {@code history} (the earlier turns
 *                     and the answers the server gave are sent before them), else its whole prompt.
 * @param hashIds      the prompt's blocks, in order, or an empty array: equal ids (in the same scope) are equal text.
 * @param outputLength answer tokens ({@code max_tokens}).
 */
public record TraceTurn(int index, int line, long delayUs, long atUs, int inputLength, long[] hashIds,
    int outputLength)
{
}
