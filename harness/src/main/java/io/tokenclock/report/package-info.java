/**
 * The outputs a run leaves: {@code record.json}, {@code requests.jsonl}, the console summary and progress line,
 * repetitions and A/B reports, the cost and energy blocks. It renders results and never runs anything: what the
 * client machine is (its inventory, its GPUs) is read by {@code runner.EnvironmentCapture} before the window and
 * comes here in the result ({@code run.ClientHost}).
 */
package io.tokenclock.report;
