package io.tokenclock.load;

import java.nio.charset.StandardCharsets;

import io.tokenclock.recording.RequestSlot;

/** Request i is {@code "request i"}, hints 100 + i prompt tokens, and belongs to group 1. Counts bodies built. */
final class NumberedFiller implements LoadGenerator.RequestFiller
{
    static final int GROUP = 1;

    private long built;

    @Override
    public byte[] body(final long i)
    {
        built++;
        return ("request " + i).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public int promptTokensHint(final long i)
    {
        return (int)(100 + i);
    }

    @Override
    public void onSubmit(final RequestSlot slot, final long i)
    {
        slot.group = GROUP;
    }

    long built()
    {
        return built;
    }
}
