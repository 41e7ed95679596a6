/**
 * The APIs tokenclock speaks, as one typed seam: {@link io.tokenclock.api.Api} names each API and knows, in one
 * place, its path under the base URL, the headers every request carries (where the key goes, a version header), the
 * key's environment variable, how its request body is laid out ({@link io.tokenclock.api.BodyShape}) and the grammar
 * of its event stream ({@link io.tokenclock.framing.EventParser}). Every layer that differs by API asks this package
 * and nothing else: the transport (path, headers, grammar), the workload (body), the configuration and the record
 * (the API's word). A new API is a constant of the enum, a shape and a grammar.
 * <p>
 * What it may import is its row, {@code api}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.api;
