package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export's records against its header. A file cut short where a frame ends reads without an error, and was
 * replayed as the whole log; a header naming records the file does not hold, or records in a partition the
 * header does not name, gave a clean result without a word.
 */
class ExportCoverageTest {
  private static final byte[] EVENT = new EventCodec().encode(Samples.envelope(Samples.of(EventType.PEER_HEARTBEAT)));
  @TempDir Path dir;

  @Test
  void aFileCutShortWhereAFrameEndsIsNamedWithWhatItLacks() throws Exception {
    Path whole = dir.resolve("whole.jsonl.zst");
    List<ExportWriter.Frame> frames;
    try (var writer = ExportWriter.create(whole, header(Map.of("kvfleet.nodes-0", 3_000L)), 1_000)) {
      for (int i = 0; i < 3_000; i++) {
        writer.write(record(0, i));
      }
      writer.finish();
      frames = writer.frames();
    }
    Path cut = dir.resolve("cut.jsonl.zst");
    Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(whole), (int) frames.get(1).offset()));

    var wholeRun = Cli.run("replay", "--file", whole.toString());
    var cutRun = Cli.run("replay", "--file", cut.toString());

    assertThat(wholeRun.exitCode()).isZero();
    assertThat(wholeRun.err()).doesNotContain("does not hold what its header says");
    assertThat(cutRun.exitCode()).isZero();
    assertThat(cutRun.out()).contains("Replayed 2,000 records");
    assertThat(cutRun.err()).contains(cut + " does not hold what its header says (a file cut short, or edited?)",
        "kvfleet.nodes-0: the header says its records run to offset 2999, the file's last is at 1999");
  }

  @Test
  void recordsOutsideTheHeadersPartitionsOrOffsetsAndPartitionsWithoutRecordsAreNamed() throws Exception {
    Path file = dir.resolve("edited.jsonl.zst");
    try (var writer = ExportWriter.create(file, header(Map.of("kvfleet.nodes-0", 10L, "kvfleet.nodes-7", 50L)))) {
      for (int i = 0; i < 10; i++) {
        writer.write(record(0, i));
      }
      writer.write(record(0, 999_999));
      writer.write(record(42, 1_000_000_000_000_000L));
      writer.finish();
    }

    var run = Cli.run("replay", "--file", file.toString());

    assertThat(run.err()).contains("kvfleet.nodes-0 offset 999999 is outside the header's [0, 10)",
        "kvfleet.nodes-42 (offset 1000000000000000) is a partition the header does not name",
        "kvfleet.nodes-7: the header says its records run to offset 49, the file's last is none");
  }

  /** A 2 KB header naming partition 1,048,575 of 400 topics took three arrays of a million longs per topic. */
  @Test
  void aHeaderNamingFarPartitionsCostsWhatItNames() throws Exception {
    var ends = new java.util.HashMap<String, Long>();
    for (int t = 0; t < 400; t++) {
      ends.put("topic" + t + "-1048575", 1L);
    }
    var coverage = new ExportCoverage(header(ends));
    coverage.see(new StoredRecord("topic7", 1_048_575, 0, 0, null, List.of(), EVENT));

    assertThat(coverage.disagreements(true)).hasSize(399).allMatch(d -> d.contains("the file's last is none"));
  }

  @Test
  void aHeaderWithAnOffsetBeforeAnyRecordIsRefusedSayingWhy() throws Exception {
    Path file = dir.resolve("negative.jsonl.zst");
    Files.write(file, new byte[0]);
    try (var out = new com.github.luben.zstd.ZstdOutputStreamNoFinalizer(Files.newOutputStream(file))) {
      out.write(("{\"format\":\"kvfleet-export\",\"version\":1,\"created\":\"2025-06-01T12:00:00Z\",\"bootstrapServers\":"
          + "\"x:1\",\"topics\":[\"kvfleet.nodes\"],\"order\":\"o\",\"filter\":\"none\",\"startOffsets\":"
          + "{\"kvfleet.nodes-0\":0},\"endOffsets\":{\"kvfleet.nodes-0\":-5}}\n").getBytes(StandardCharsets.UTF_8));
    }

    var run = Cli.run("replay", "--file", file.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("its first line is not an export header",
        "endOffsets: kvfleet.nodes-0 at offset -5, before any record");
  }

  private static ExportHeader header(Map<String, Long> ends) {
    var starts = new TreeMap<String, Long>();
    ends.keySet().forEach(p -> starts.put(p, 0L));
    return new ExportHeader(ExportHeader.FORMAT, ExportHeader.VERSION, Instant.parse("2025-06-01T12:00:00Z"),
        "127.0.0.1:9092", Topics.ALL, ExportHeader.ORDER, "none", starts, new TreeMap<>(ends));
  }

  private static StoredRecord record(int partition, long offset) {
    return new StoredRecord(Topics.NODES, partition, offset, 1_748_779_200_000L + offset % 1_000_000, "k".getBytes(),
        List.of(new StoredRecord.Header("content-type", Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8))), EVENT);
  }
}
