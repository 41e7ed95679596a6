package io.tokenclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.contract.ContractFile;
import io.tokenclock.contract.ContractOptions;

/**
 * The decoding options the harness sends are checked against the ranges the OpenAI API documents, whether a flag or a
 * contract gave them, by {@link RunRules}: one line naming the flag or key.
 */
final class DecodingRangesTest
{
    @TempDir
    Path dir;

    private static RunOptionsBuilder closed()
    {
        return RunOptions.builder().url("http://127.0.0.1:9/v1").concurrency(1);
    }

    private static String refused(final RunOptionsBuilder b)
    {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    private String refusedContract(final String yaml) throws Exception
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, "target: {url: 'http://127.0.0.1:9/v1'}\nload: {concurrency: 1, requests: 2}\n" +
            yaml);
        // a contract is checked by the rules when it is loaded (validate), and refused so when applied
        final ContractFile contract = ContractFile.load(file);
        assertEquals(1, contract.errors().size(), "one line: " + contract.errors());
        assertEquals(contract.errors().get(0), assertThrows(IllegalArgumentException.class,
            () -> ContractOptions.apply(contract, RunOptions.builder()).build()).getMessage());
        return contract.errors().get(0);
    }

    @Test
    void shouldRefuseATemperatureOutsideZeroToTwoNamingTheFlag()
    {
        assertEquals("--temperature must be in [0, 2], the OpenAI API's range: -1.0",
            refused(closed().temperature(-1.0)));
        assertEquals("--temperature must be in [0, 2], the OpenAI API's range: 2.5",
            refused(closed().temperature(2.5)));
        assertEquals(2.0, closed().temperature(2.0).build().model().temperature());
    }

    @Test
    void shouldCheckTheDecodingFieldsOfTheExtraBody()
    {
        assertEquals("--extra-body top_p must be in [0, 1], the OpenAI API's range: 1.5",
            refused(closed().extraBody("{\"top_p\": 1.5}")));
        assertEquals("--extra-body presence_penalty must be in [-2, 2], the OpenAI API's range: -2.5",
            refused(closed().extraBody("{\"presence_penalty\": -2.5}")));
        assertEquals("--extra-body frequency_penalty must be in [-2, 2], the OpenAI API's range: 3",
            refused(closed().extraBody("{\"frequency_penalty\": 3}")));
        assertEquals("--extra-body temperature must be in [0, 2], the OpenAI API's range: -0.1",
            refused(closed().extraBody("{\"temperature\": -0.1}")));
        assertEquals("--extra-body n must be an integer in [1, 2147483647]: 0",
            refused(closed().extraBody("{\"n\": 0}")));
        assertEquals("--extra-body max_tokens must be an integer in [1, 2147483647]: 0",
            refused(closed().extraBody("{\"max_tokens\": 0}")));
        assertEquals("--extra-body max_completion_tokens must be an integer in [1, 2147483647]: 2.5",
            refused(closed().extraBody("{\"max_completion_tokens\": 2.5}")));
        assertEquals("--extra-body top_logprobs must be an integer in [0, 20]: 21",
            refused(closed().extraBody("{\"top_logprobs\": 21}")));
        assertEquals("--extra-body top_p must be a number: \"high\"",
            refused(closed().extraBody("{\"top_p\": \"high\"}")));
        closed().extraBody("{\"top_p\": 0, \"presence_penalty\": -2, \"frequency_penalty\": 2, \"n\": 1, " +
            "\"top_logprobs\": 0, \"max_tokens\": 1, \"top_k\": 40}").build();
    }

    @Test
    void shouldRefuseANumberNoServerCouldReadBackAnywhereInTheExtraBody()
    {
        // 1e400 parses to infinity, which Jackson would send as the string "Infinity"
        assertEquals("--extra-body max_tokens must be a finite number: Infinity",
            refused(closed().extraBody("{\"max_tokens\": 1e400}")));
        assertEquals("--extra-body response_format.json_schema.minimum must be a finite number: -Infinity",
            refused(closed().extraBody("{\"response_format\": {\"json_schema\": {\"minimum\": -1e400}}}")));
        assertEquals("--extra-body logit_bias[1] must be a finite number: Infinity",
            refused(closed().extraBody("{\"logit_bias\": [0, 2e308]}")));
    }

    @Test
    void shouldHoldTheExtraBodysCountsAndSeedToWhatTheirFlagsAndTheApiHold()
    {
        assertEquals("--extra-body max_tokens must be an integer in [1, 2147483647]: 3000000000",
            refused(closed().extraBody("{\"max_tokens\": 3000000000}")));
        assertEquals("--extra-body seed must be an integer in [-9223372036854775808, 9223372036854775807]: " +
            "9223372036854775808", refused(closed().extraBody("{\"seed\": 9223372036854775808}")));
        assertEquals("--extra-body seed must be an integer in [-9223372036854775808, 9223372036854775807]: 1.0E19",
            refused(closed().extraBody("{\"seed\": 1e19}")));
        assertEquals("--extra-body seed must be an integer in [-9223372036854775808, 9223372036854775807]: 1.5",
            refused(closed().extraBody("{\"seed\": 1.5}")));
        assertEquals("--extra-body seed must be a number: \"7\"", refused(closed().extraBody("{\"seed\": \"7\"}")));
        closed().extraBody("{\"seed\": -9223372036854775808, \"max_tokens\": 2147483647}").build();
    }

    @Test
    void shouldNameTheContractKeyOfARangeTheContractBroke() throws Exception
    {
        assertEquals("model.decoding.temperature must be in [0, 2], the OpenAI API's range: 3.0",
            refusedContract("model: {decoding: {temperature: 3}}\n"));
        assertEquals("model.decoding.extra_body.top_p must be in [0, 1], the OpenAI API's range: -0.5",
            refusedContract("model: {decoding: {extra_body: {top_p: -0.5}}}\n"));
        assertEquals("workload.segments[1].extra_body.presence_penalty must be in [-2, 2], the OpenAI API's " +
            "range: 9", refusedContract("workload:\n  segments:\n" +
            "    - {name: a, weight: 0.5, input_tokens: {dist: fixed, value: 8}}\n" +
            "    - {name: b, weight: 0.5, input_tokens: {dist: fixed, value: 8},\n" +
            "       extra_body: {presence_penalty: 9}}\n"));
        assertEquals("quality.judge.temperature must be in [0, 2], the OpenAI API's range: 2.5",
            refusedContract("quality:\n  judge: {url: 'http://127.0.0.1:9/v1', model: j, rubric: r, " +
                "temperature: 2.5}\n"));
    }

    @Test
    void shouldHoldTheJudgesTemperatureToTheSameRangeAndMessageAsTheRunsWhereverItFalls() throws Exception
    {
        // one range, RunRules': the schema once bounded the judge's temperature to [0, 100] with its own message
        for (final String t : new String[] {"150", "-1"})
        {
            assertEquals("quality.judge.temperature must be in [0, 2], the OpenAI API's range: " +
                Double.parseDouble(t), refusedContract("quality:\n  judge: {url: 'http://127.0.0.1:9/v1', " +
                "model: j, rubric: r, temperature: " + t + "}\n"));
        }
    }
}
