package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A record carries what the collector reads, and a ring holds as many records as its capacity says. */
final class ChunkRecordsTest
{
    @Test
    void shouldTakeThirtyTwoBytesARecordWithAgronasHeader()
    {
        assertEquals(24, ChunkRecords.RECORD_LENGTH);
        assertEquals(32, ChunkRecords.FRAMED_LENGTH);
    }

    @ParameterizedTest
    @ValueSource(ints = {4096, 1 << 22})
    void shouldHoldCapacityOverFramedLengthRecords(final int capacityBytes)
    {
        final RingBuffer ring = new ChunkRecords(capacityBytes).ring();
        int held = 0;
        for (int index; (index = ring.tryClaim(ChunkRecords.MSG_CHUNK, ChunkRecords.RECORD_LENGTH)) >= 0; held++)
        {
            ring.commit(index);
        }

        assertEquals(capacityBytes / ChunkRecords.FRAMED_LENGTH, held);
        if (capacityBytes == 1 << 22)
        {
            assertEquals(131_072, held, "the 4 MiB ring the runner uses");
        }
    }

    @Test
    void shouldCarrySlotTokensStampAndFlagsOfAChunkAndSlotAndStampOfAnEnd()
    {
        final ChunkRecords records = new ChunkRecords(4096);
        records.publishChunk(5, 1_234_567_890_123L, 7, RequestSlot.CHUNK_OUTPUT | RequestSlot.CHUNK_REASONING);
        records.publishChunk(6, 42L, RequestSlot.TOKENS_UNKNOWN, RequestSlot.CHUNK_REASONING);
        records.publishEnd(5, 1_234_567_990_123L);

        final List<long[]> read = new ArrayList<>();
        records.ring().read((type, buffer, index, length) -> read.add(new long[] {
            type, length, buffer.getInt(index + ChunkRecords.SLOT_OFFSET),
            buffer.getInt(index + ChunkRecords.TOKENS_OFFSET), buffer.getLong(index + ChunkRecords.NS_OFFSET),
            buffer.getInt(index + ChunkRecords.FLAGS_OFFSET), buffer.getInt(index + 20)}));

        assertEquals(3, read.size());
        final int both = RequestSlot.CHUNK_OUTPUT | RequestSlot.CHUNK_REASONING;
        assertArrayEquals(new long[] {ChunkRecords.MSG_CHUNK, 24, 5, 7, 1_234_567_890_123L, both, 0}, read.get(0));
        assertArrayEquals(new long[] {ChunkRecords.MSG_CHUNK, 24, 6, RequestSlot.TOKENS_UNKNOWN, 42L,
            RequestSlot.CHUNK_REASONING, 0}, read.get(1));
        assertArrayEquals(new long[] {ChunkRecords.MSG_END, 24, 5, 0, 1_234_567_990_123L, 0, 0}, read.get(2));
    }
}
