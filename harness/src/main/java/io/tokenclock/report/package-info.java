/**
 * The outputs a run leaves: {@code record.json}, {@code requests.jsonl}, the console summary and progress line,
 * repetitions and A/B reports, the cost and energy blocks. It renders results; {@code EnvironmentCapture}, which runs
 * {@code nvidia-smi} and the round-trip probe, is the one class here that runs anything.
 */
package io.tokenclock.report;
