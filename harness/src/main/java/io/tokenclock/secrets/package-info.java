/**
 * Keeping credentials out of every output: redaction of URLs, headers and JVM options before anything is written
 * or printed.
 */
package io.tokenclock.secrets;
