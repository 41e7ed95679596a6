/**
 * Bytes to events on the hot path, without a {@code String} or a JSON tree: the SSE framer, the chunk parser that
 * finds content, finish reason and usage by offset, the byte scans they share, and the escaping of untrusted text
 * for a terminal.
 */
package io.tokenclock.framing;
