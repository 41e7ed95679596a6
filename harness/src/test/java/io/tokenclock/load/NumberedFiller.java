package io.tokenclock.load;

import java.nio.charset.StandardCharsets;

/** Request i is {@code "request i"}, hints 100 + i prompt tokens, and belongs to group 1. Counts bodies built. */
final class NumberedFiller implements LoadGenerator.RequestFiller
{
    static final int GROUP = 1;

    private long built;

    @Override
    public BuiltRequest build(final long i)
    {
        built++;
        return new BuiltRequest(("request " + i).getBytes(StandardCharsets.US_ASCII), (int)(100 + i), GROUP);
    }

    long built()
    {
        return built;
    }
}
