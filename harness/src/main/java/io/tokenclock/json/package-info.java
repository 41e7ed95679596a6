/**
 * The harness's one configured JSON mapper ({@link io.tokenclock.json.Json}), in the lowest layer so that every
 * package that uses Jackson can share it.
 */
package io.tokenclock.json;
