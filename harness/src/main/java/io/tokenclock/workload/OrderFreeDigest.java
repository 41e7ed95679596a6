package io.tokenclock.workload;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import io.tokenclock.util.Sha256;

/**
 * A hash of a set of messages that does not depend on the order they were added in: the SHA-256 of each message,
 * summed mod 2^256. For workloads whose requests interleave in an order the server's timing sets (users, agents, a
 * trace's sessions), so that the same seed and the same messages give the same hash whatever the order. Not
 * thread-safe.
 */
final class OrderFreeDigest
{
    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(256);

    private final MessageDigest digest = Sha256.newDigest();
    private BigInteger sum = BigInteger.ZERO;

    /** Adds one message. */
    void add(final String message)
    {
        sum = sum.add(new BigInteger(1, digest.digest(message.getBytes(StandardCharsets.UTF_8)))).mod(MODULUS);
    }

    /** @return the sum as 64 hex digits. */
    String hex()
    {
        return String.format("%064x", sum);
    }
}
