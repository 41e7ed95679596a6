/**
 * The harness's one configured JSON mapper ({@link io.tokenclock.json.Json}), in the lowest layer so that every
 * package that uses Jackson can share it.
 * <p>
 * It imports no other tokenclock package: its row, {@code json}, in docs/ARCHITECTURE.md's table, which LayeringTest
 * holds it to.
 */
package io.tokenclock.json;
