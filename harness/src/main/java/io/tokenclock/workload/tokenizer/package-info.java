/**
 * Token counting for prompts and answers: tiktoken (jtokkit), Hugging Face tokenizers (DJL), and a word
 * tokenizer for when neither is asked for.
 * <p>
 * What it may import is its row, {@code workload.tokenizer}, in docs/ARCHITECTURE.md's table, which LayeringTest holds
 * it to; it never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.workload.tokenizer;
