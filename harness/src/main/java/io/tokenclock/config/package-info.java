/**
 * A run's configuration: the immutable, typed {@link io.tokenclock.config.RunOptions}, its builder, the rules that
 * bind options together ({@link io.tokenclock.config.RunRules}), and the names of each option as a flag and as a
 * contract key.
 * <p>
 * What it may import is its row, {@code config}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.config;
