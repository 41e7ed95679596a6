/**
 * Text a server sent, made safe for a terminal or a log line ({@link io.tokenclock.text.UntrustedText}): control
 * characters escaped, length cut. Its own package, and not {@code secrets}, because the two guard opposite
 * directions: {@code secrets} keeps what the user gave (keys, credentials) out of what tokenclock writes, while this
 * keeps what a server sent from acting on the user's terminal. Nor is it {@code framing}, which frames bytes on the
 * hot path and never builds a {@code String}; every layer that prints a server's words uses this, the transport and
 * the recorder included. It is also why an echoed credential is redacted here (through
 * {@link io.tokenclock.secrets.KnownSecrets}, where the rule lives): this is the one door server text passes.
 * <p>
 * What it may import is its row, {@code text}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.text;
