package io.tokenclock.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every figure below is computed by hand from the formulas of docs/COST_ENERGY.md. */
final class CostModelTest
{
    private static final double EXACT = 1e-12;

    @Test
    void shouldPriceTheSpecExampleAt0024PerRequestAnd00261PerSuccessfulTask()
    {
        // 1000 attempted requests costing EUR 24 in all, 920 of them passing the quality rule.
        final PriceModel fee = new PriceModel.Api("EUR", 0, 0, 0, 0.024);
        final Usage usage = new Usage(1000, 950, 50, 0, 0, -1, 0, 0, 60);
        final CostReport c = CostModel.price(fee, usage, Successes.quality(920));

        assertEquals(24.0, c.runTotal(), EXACT);
        assertEquals(0.024, c.perRequest(), EXACT);
        assertEquals(24.0 / 920, c.perSuccessfulTask(), EXACT);
        assertEquals(0.0261, c.perSuccessfulTask(), 0.00005);
        assertEquals("quality", c.successes().basis().word());
        assertEquals(50 * 0.024, c.wasted(), EXACT, "the 50 failed requests' fees");
        assertEquals("EUR", c.currency());
    }

    @Test
    void shouldPriceTheSpecExampleTheSameWhenSelfHostedForAnHour()
    {
        // One accelerator at EUR 20/h plus a host at EUR 4/h for a 3600 s window: EUR 24.
        final PriceModel hosted = new PriceModel.SelfHosted("EUR", 20, 1, 4, 1.0);
        final Usage usage = new Usage(1000, 1000, 0, 100_000, 50_000, -1, 0, 0, 3600);
        final CostReport c = CostModel.price(hosted, usage, Successes.quality(920));

        assertEquals(24.0, c.runTotal(), EXACT);
        assertEquals(0.024, c.perRequest(), EXACT);
        assertEquals(24.0 / 920, c.perSuccessfulTask(), EXACT);
        assertEquals(24.0 / 50_000, c.perOutputToken(), EXACT);
        assertEquals(0.0, c.wasted(), EXACT);
    }

    @Test
    void shouldPriceApiTokensPerMillionAndBillTheWastedRequestsTokens()
    {
        // input 1.0/M, output 4.0/M, cached 0.5/M, fee 0.001. Completed: 2,000,000 in, 500,000 out.
        // Wasted: 100,000 in, 20,000 out over 10 requests. Cached: 400,000.
        final PriceModel api = new PriceModel.Api("USD", 1.0, 4.0, 0.5, 0.001);
        final Usage usage = new Usage(110, 100, 10, 2_000_000, 500_000, 400_000, 100_000, 20_000, 30);
        final CostReport c = CostModel.price(api, usage, Successes.completed(100));

        // uncached 1,700,000 x 1/M = 1.7; cached 400,000 x 0.5/M = 0.2; output 520,000 x 4/M = 2.08; fees 0.11
        assertEquals(1.7 + 0.2 + 2.08 + 0.11, c.runTotal(), 1e-9);
        assertEquals(4.09 / 110, c.perRequest(), 1e-9);
        assertEquals(4.09 / 500_000, c.perOutputToken(), 1e-15);
        assertEquals(4.09 / 100, c.perSuccessfulTask(), 1e-9);
        assertEquals("completed", c.successes().basis().word());
        // wasted: 100,000 x 1/M = 0.1; 20,000 x 4/M = 0.08; 10 x 0.001 = 0.01
        assertEquals(0.19, c.wasted(), 1e-9);
        assertTrue(c.arithmetic().contains("1700000 uncached input x 1/1M"), c.arithmetic());
        assertTrue(!c.boundary().contains("not recorded"), "cached tokens were given: " + c.boundary());
    }

    @Test
    void shouldSayCachedInputIsNotRecordedAndPriceItAllAsUncached()
    {
        final PriceModel api = new PriceModel.Api("USD", 2.0, 0, 1.0, 0);
        final CostReport c = CostModel.price(api, new Usage(1, 1, 0, 1_000_000, 0, -1, 0, 0, 1),
            Successes.completed(1));

        assertEquals(2.0, c.runTotal(), EXACT);
        assertTrue(c.boundary().contains("cached-input tokens are not recorded"), c.boundary());
    }

    @Test
    void shouldApportionSelfHostedWasteByShareOfTokens()
    {
        // 8 x 2.5 + 4 = 24/h, x 1.25 reserve = 30/h, over 1800 s = 15.
        final PriceModel hosted = new PriceModel.SelfHosted("EUR", 2.5, 8, 4, 1.25);
        // all tokens: 600 + 300 + 60 + 40 = 1000; wasted 100 of them.
        final CostReport c = CostModel.price(hosted, new Usage(12, 10, 2, 600, 300, -1, 60, 40, 1800),
            Successes.completed(10));

        assertEquals(15.0, c.runTotal(), EXACT);
        assertEquals(1.5, c.wasted(), EXACT);
        assertEquals(1.5, c.perSuccessfulTask(), EXACT);
        assertEquals(15.0 / 300, c.perOutputToken(), EXACT);
        assertTrue(c.arithmetic().startsWith("(8 x 2.5 + 4) per hour x 1.25 idle reserve x 1800 s"),
            c.arithmetic());
    }

    @Test
    void shouldCountTheTokenizerCountedInputOfFailedRequestsInTheSelfHostedWasteAndSaySo()
    {
        // The audit's run: 66 output tokens of cancelled requests out of 3709 processed, and 46 failed requests whose
        // 725 input tokens only the harness's tokenizer counted (the server reported no usage for them).
        final PriceModel hosted = new PriceModel.SelfHosted("USD", 2, 1, 0, 1);
        final Usage usage = new Usage(200, 154, 46, 2_000, 918, -1, 725, 66, 3600, 725);
        final CostReport c = CostModel.price(hosted, usage, Successes.completed(154));

        assertEquals(2.0 * (725 + 66) / (2_000 + 918 + 725 + 66), c.wasted(), 1e-12);
        assertTrue(c.wastedBasis().contains("(791 of 3709;"), c.wastedBasis());
        assertTrue(c.wastedBasis().contains("0 as reported by the server, 725 counted by the harness's tokenizer"),
            c.wastedBasis());
    }

    @Test
    void shouldLeaveARatioNullWhenThereIsNothingToDivideBy()
    {
        final CostReport c = CostModel.price(new PriceModel.SelfHosted("EUR", 1, 1, 0, 1),
            new Usage(0, 0, 0, 0, 0, -1, 0, 0, 3600), Successes.completed(0));

        assertEquals(1.0, c.runTotal(), EXACT);
        assertNull(c.perRequest());
        assertNull(c.perOutputToken());
        assertNull(c.perSuccessfulTask());
        assertEquals(0.0, c.wasted(), EXACT);
    }

    @Test
    void shouldParseBothPriceFlags()
    {
        final PriceModel api = PriceModel.parse("api:EUR,input=0.15,output=0.6,cached_input=0.075,per_request=0.001");
        assertEquals(new PriceModel.Api("EUR", 0.15, 0.6, 0.075, 0.001), api);
        final PriceModel hosted = PriceModel.parse("self-hosted:USD,accelerator_per_hour=2.5,accelerators=8," +
            "host_per_hour=1.2,idle_reserve_factor=1.3");
        assertEquals(new PriceModel.SelfHosted("USD", 2.5, 8, 1.2, 1.3), hosted);
        assertInstanceOf(PriceModel.SelfHosted.class, PriceModel.parse("self-hosted:EUR,accelerator_per_hour=1," +
            "accelerators=1"));
    }

    @Test
    void shouldRejectABadPriceWithOneLine()
    {
        assertEquals("--price: output= is required",
            assertThrows(IllegalArgumentException.class, () -> PriceModel.parse("api:EUR,input=1")).getMessage());
        assertEquals("--price: unknown key outptu",
            assertThrows(IllegalArgumentException.class,
                () -> PriceModel.parse("api:EUR,input=1,output=2,outptu=3")).getMessage());
        assertEquals("idle_reserve_factor must be a finite number >= 1 (1: no reserve): 0.5",
            assertThrows(IllegalArgumentException.class, () -> PriceModel.parse("self-hosted:EUR," +
                "accelerator_per_hour=1,accelerators=1,idle_reserve_factor=0.5")).getMessage());
        assertEquals("input_per_mtok must be a finite price >= 0: -1.0",
            assertThrows(IllegalArgumentException.class, () -> PriceModel.parse("api:EUR,input=-1,output=2"))
                .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PriceModel.parse("api"))
            .getMessage().startsWith("--price must be api:CURRENCY"));
        assertEquals("--price: the model must be api or self-hosted, got: cloud",
            assertThrows(IllegalArgumentException.class, () -> PriceModel.parse("cloud:EUR,x=1")).getMessage());
    }
}
