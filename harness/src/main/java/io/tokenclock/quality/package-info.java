/**
 * The quality contract (Q): the rule a request's output must pass to count as a success, fixed before the run and
 * identical for the variants compared; the built-in checks against a dataset entry's reference (exact, normalized,
 * contains, regex, numeric, JSON, JSON Schema, finish_reason, an external command) and an LLM judge on a second
 * OpenAI-compatible endpoint. Everything here runs after the measured window, from stored outputs, never on the
 * run's clock. Depends on nothing of the harness but {@code util} and {@code secrets}.
 * <p>
 * What it may import is its row, {@code quality}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.quality;
