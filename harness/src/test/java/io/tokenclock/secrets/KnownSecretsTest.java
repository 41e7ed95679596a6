package io.tokenclock.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class KnownSecretsTest
{
    @AfterEach
    void forget()
    {
        KnownSecrets.forget();
    }

    @Test
    void shouldRedactAnEchoedKeyWhateverTheServerWrappedAroundIt()
    {
        KnownSecrets.remember("sk-live-7f3a91c2");
        assertEquals("{\"error\":\"invalid api key <redacted>\"}",
            KnownSecrets.redact("{\"error\":\"invalid api key sk-live-7f3a91c2\"}"));
        assertEquals("key=<redacted> and again <redacted>.",
            KnownSecrets.redact("key=sk-live-7f3a91c2 and again sk-live-7f3a91c2."));
    }

    @Test
    void shouldRedactTheStartOfAKeyWhereABodyWasCutInsideIt()
    {
        KnownSecrets.remember("sk-live-7f3a91c2");
        assertEquals("{\"error\":\"invalid api key <redacted>", KnownSecrets.redact(
            "{\"error\":\"invalid api key sk-live-7f"));
        assertEquals("ends in sk-", KnownSecrets.redact("ends in sk-"), "three characters are no credential");
    }

    @Test
    void shouldRedactAnAuthorizationValueItsTokenAndAUrlsUserInformationInEveryFormAClientSendsIt()
    {
        KnownSecrets.rememberHeader("Authorization", "Bearer tok-3e9a1b");
        KnownSecrets.rememberUrl("https://bob:p%40ss-word@api.example/v1?api-version=2024-10-21&sig=s1g-abc/d+e");
        final String basic = Base64.getEncoder().encodeToString("bob:p@ss-word".getBytes(StandardCharsets.UTF_8));
        assertEquals("got <redacted>, <redacted>, Basic <redacted>, <redacted>, <redacted> and <redacted>",
            KnownSecrets.redact("got Bearer tok-3e9a1b, tok-3e9a1b, Basic " + basic + ", p@ss-word, p%40ss-word " +
                "and s1g-abc\\/d+e"), "the JSON-escaped form of a query value too");
        assertEquals("api-version=<redacted>", KnownSecrets.redact("api-version=2024-10-21"),
            "every query value, as Redaction.url hides it");
    }

    @Test
    void shouldSearchForAnyHeadersValueButAShortOneOnlyWhenItsNameSaysSecret()
    {
        KnownSecrets.rememberHeader("X-Trace", "true");
        KnownSecrets.rememberHeader("X-Api-Key", "k1b2");
        KnownSecrets.rememberHeader("X-Tenant", "tenant-0042-east");
        assertEquals("stream: true, key <redacted>, tenant <redacted>",
            KnownSecrets.redact("stream: true, key k1b2, tenant tenant-0042-east"));
    }

    @Test
    void shouldLeaveTextAloneWhenNothingIsKnown()
    {
        final String text = "nothing to hide";
        assertEquals(text, KnownSecrets.redact(text));
        assertNull(KnownSecrets.redact(null));
        KnownSecrets.remember("   ");
        KnownSecrets.remember(null);
        assertEquals(text, KnownSecrets.redact(text));
    }

    @Test
    void shouldForgetEverythingForANewCommand()
    {
        KnownSecrets.remember("sk-forgotten-1");
        KnownSecrets.forget();
        assertFalse(KnownSecrets.redact("sk-forgotten-1").contains("<redacted>"));
    }
}
