package io.tokenclock.runner;

/** A shard was ready only after its common start plus the tolerance, and refused to run; its record says why. */
public final class LateStartException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    LateStartException(final String message)
    {
        super(message);
    }
}
