/**
 * A run's configuration: the immutable, typed {@link io.tokenclock.config.RunOptions}, its builder, the rules that
 * bind options together ({@link io.tokenclock.config.RunRules}), and the names of each option as a flag and as a
 * contract key.
 */
package io.tokenclock.config;
