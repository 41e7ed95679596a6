/**
 * What a finished run measured, the input of every report: {@link io.tokenclock.run.RunResult} and its named
 * parts, the server's identity, the readiness before t0, and the answer text decoded from the kept bytes.
 */
package io.tokenclock.run;
