/**
 * The contract file (YAML): its schema, and its sections read into the same options builder the command line
 * feeds.
 * <p>
 * What it may import is its row, {@code contract}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.contract;
