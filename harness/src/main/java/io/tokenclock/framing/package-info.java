/**
 * Bytes to events on the hot path, without a {@code String} or a JSON tree: the SSE framer, the chunk parser that
 * finds content, finish reason and usage by offset, the byte scans they share, and the one growing byte buffer
 * ({@link io.tokenclock.framing.AppendBuffer}) that they and the request slot append to. Escaping a server's text for a
 * terminal is package {@code text}.
 * <p>
 * It imports no other tokenclock package: its row, {@code framing}, in docs/ARCHITECTURE.md's table, which
 * LayeringTest holds it to.
 */
package io.tokenclock.framing;
