/**
 * What is sent: synthetic prompts, shared prefixes, sessions and agent turns, cancellation rules, seeds, and the
 * request bodies built from them.
 * <p>
 * What it may import is its row, {@code workload}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.workload;
