/**
 * Token counting for prompts and answers: tiktoken (jtokkit), Hugging Face tokenizers (DJL), and a word
 * tokenizer for when neither is asked for.
 */
package io.tokenclock.workload.tokenizer;
