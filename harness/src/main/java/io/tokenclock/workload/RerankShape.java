package io.tokenclock.workload;

/** Which rerank request shape is sent ({@code --rerank-shape}); the answers of both are read alike. */
public enum RerankShape
{
    /** {@code model}, {@code query}, {@code documents}: vLLM, Cohere's {@code /v2/rerank}, Jina, llama.cpp's server. */
    DOCUMENTS,
    /** {@code query}, {@code texts}: Hugging Face TEI, whose answer is a bare array of {@code {index, score}}. */
    TEXTS
}
