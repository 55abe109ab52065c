// Reads an MCAP file with the readers Foxglove uses: @mcap/core (indexed and streaming readers,
// which check the magic, footer, summary CRC, chunk CRCs and the message indexes) with the
// zstd / lz4 decompressors @mcap/support uses (@foxglove/wasm-zstd, @foxglove/wasm-lz4), and
// @foxglove/rosmsg + @foxglove/rosmsg2-serialization (the .msg schema text -> a CDR decoder). Throws on anything they reject; prints what it read as
// JSON for check_mcap_with_foxglove.py to compare with the run's frames.jsonl.
//
// usage: node mcap_check.mjs FILE.mcap
import { readFileSync } from "node:fs";
import { McapIndexedReader, McapStreamReader } from "@mcap/core";
import lz4 from "@foxglove/wasm-lz4";
import zstd from "@foxglove/wasm-zstd";
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";

function fail(message) {
  throw new Error(message);
}

// JSON-friendly: bigint -> number (ns below 2^53), typed arrays -> arrays.
function plain(value) {
  if (typeof value === "bigint") return Number(value);
  if (ArrayBuffer.isView(value)) return Array.from(value, plain);
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

const file = process.argv[2];
const bytes = new Uint8Array(readFileSync(file));
// The two decompressors ubot writes, wired as @mcap/support's loadDecompressHandlers() wires
// them. Not that function itself: it also starts the bzip2 module, and with the three WASM
// modules compiling at once Node 20 hung in about 1 run in 20 (no CPU, never resolving).
await lz4.isLoaded;
await zstd.isLoaded;
const decompressHandlers = {
  lz4: (buffer, size) => new Uint8Array(lz4(buffer, Number(size))),
  zstd: (buffer, size) => new Uint8Array(zstd.decompress(buffer, Number(size))),
};

// 1. Streaming: every record from the magic to the footer, chunk CRCs validated.
const stream = new McapStreamReader({ decompressHandlers, validateCrcs: true, includeChunks: true });
stream.append(bytes);
const streamed = [];
const recordTypes = [];
for (let record; (record = stream.nextRecord()); ) {
  recordTypes.push(record.type);
  if (record.type === "Message") streamed.push(record);
}
if (!stream.done()) fail("the streaming reader did not reach a valid footer");

// 2. Indexed: footer, summary (CRC checked), chunk indexes and message indexes.
const readable = {
  size: async () => BigInt(bytes.length),
  read: async (offset, length) => bytes.subarray(Number(offset), Number(offset + length)),
};
const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers });
const indexed = [];
for await (const m of reader.readMessages()) indexed.push(m);
if (indexed.length !== streamed.length) {
  fail(`indexed reader: ${indexed.length} messages, streaming reader: ${streamed.length}`);
}
// Both in log-time order; within a time, file order (the indexed reader keeps it).
for (let i = 0; i < indexed.length; ++i) {
  const a = indexed[i], b = streamed[i];
  if (a.channelId !== b.channelId || a.sequence !== b.sequence || a.logTime !== b.logTime ||
      Buffer.compare(Buffer.from(a.data), Buffer.from(b.data)) !== 0) {
    fail(`message ${i} differs between the indexed and the streaming reader`);
  }
}
const perTopicIndexed = {};
for (const channel of reader.channelsById.values()) {
  let n = 0;
  for await (const _ of reader.readMessages({ topics: [channel.topic] })) ++n;
  perTopicIndexed[channel.topic] = n;
}

// 3. Decode every message with its schema, as Foxglove does.
const decoders = new Map();
const messages = {};
for (const m of streamed) {
  const channel = reader.channelsById.get(m.channelId);
  const schema = reader.schemasById.get(channel.schemaId);
  if (!decoders.has(schema.id)) {
    const text = new TextDecoder().decode(schema.data);
    decoders.set(schema.id, new MessageReader(parse(text, { ros2: true })));
  }
  const decoder = decoders.get(schema.id);
  const msg = decoder.readMessage(m.data);
  if (decoder.lastReadHadTrailingBytes()) {
    fail(`${channel.topic}: ${m.data.length - decoder.lastReadByteLength()} bytes left after ` +
         `decoding with the ${schema.name} schema`);
  }
  (messages[channel.topic] ??= []).push({
    log_time: m.logTime, publish_time: m.publishTime, sequence: m.sequence, msg,
  });
}

const chunkCompressions = [...new Set(reader.chunkIndexes.map((c) => c.compression))];
console.log(JSON.stringify(plain({
  header: reader.header,
  footer: reader.footer,
  statistics: reader.statistics,
  data_end_offset: reader.dataEndOffset,
  data_section_crc: reader.dataSectionCrc ?? 0,
  summary_offset_opcodes: [...reader.summaryOffsetsByOpcode.keys()],
  record_types: [...new Set(recordTypes)],
  chunk_indexes: reader.chunkIndexes.map((c) => ({
    chunk_start_offset: c.chunkStartOffset, chunk_length: c.chunkLength,
    message_index_offsets: c.messageIndexOffsets, message_index_length: c.messageIndexLength,
    compression: c.compression, compressed_size: c.compressedSize,
    uncompressed_size: c.uncompressedSize,
    message_start_time: c.messageStartTime, message_end_time: c.messageEndTime,
  })),
  chunk_compressions: chunkCompressions,
  schemas: [...reader.schemasById.values()].map((s) => ({
    id: s.id, name: s.name, encoding: s.encoding, data: new TextDecoder().decode(s.data),
  })),
  channels: [...reader.channelsById.values()].map((c) => ({
    id: c.id, topic: c.topic, schema_id: c.schemaId, message_encoding: c.messageEncoding,
    metadata: c.metadata,
  })),
  per_topic_indexed: perTopicIndexed,
  messages,
})));
