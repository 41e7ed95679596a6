/**
 * The transports under the core: Netty's streaming HTTP client, whose event loop stamps each read once, and the
 * kernel-stamped client over FFM, each a {@link io.tokenclock.transport.Transport}; the one exchange both hand their
 * stamped reads to (HTTP decoding, the response's head, limits, retries, error classes), endpoints, header rules,
 * request limits and TLS trust. The only package that knows Netty.
 * <p>
 * What it may import is its row, {@code transport}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to;
 * it never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.transport;
