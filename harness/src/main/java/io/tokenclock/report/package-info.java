/**
 * The outputs a run leaves: {@code record.json}, {@code requests.jsonl}, the console summary and progress line,
 * repetitions and A/B reports, the cost and energy blocks. It renders results and never runs anything: what the
 * client machine is (its inventory, its GPUs) is read by {@code runner.EnvironmentCapture} before the window and
 * comes here in the result ({@code run.ClientHost}).
 * <p>
 * What it may import is its row, {@code report}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.report;
