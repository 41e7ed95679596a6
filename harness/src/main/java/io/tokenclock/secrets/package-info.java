/**
 * Keeping credentials out of every output: redaction of URLs, headers and JVM options before anything is written
 * or printed.
 * <p>
 * It imports no other tokenclock package: its row, {@code secrets}, in docs/ARCHITECTURE.md's table, which
 * LayeringTest holds it to.
 */
package io.tokenclock.secrets;
