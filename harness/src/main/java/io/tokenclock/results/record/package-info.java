/**
 * {@code record.json} as typed Java records: {@link io.tokenclock.results.record.RunRecord} and its sections, each
 * distribution as written ({@link io.tokenclock.results.record.Dist}), a repetition set's {@code pooled.json}
 * ({@link io.tokenclock.results.record.PooledRecord}), the one mapper every result file is written and read with
 * ({@link io.tokenclock.results.record.RecordJson}), and the one line a file that is not what it claims gets
 * ({@link io.tokenclock.results.record.FileErrors}). {@code report.RecordWriter} writes these types; {@code results},
 * {@code peers}, {@code compare} and the reports read them. It sits under {@code results}, and not in it, because the
 * peers' importers build these types and {@code results} opens the peers' files: one package would be a cycle.
 * <p>
 * What it may import is its row, {@code results.record}, in docs/ARCHITECTURE.md's table, which
 * {@code LayeringTest} holds it to; it never imports {@code results}, {@code peers}, {@code report} or anything else
 * that writes or reads these types, nor {@code run}: the record's keys are declared here and in {@code metrics} only.
 */
package io.tokenclock.results.record;
