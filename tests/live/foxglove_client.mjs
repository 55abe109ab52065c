// A Foxglove client of ubot's live server, built from Foxglove's own libraries: the protocol
// client @foxglove/ws-protocol (over the `ws` WebSocket), @foxglove/rosmsg (parses each
// channel's ros2msg schema) and @foxglove/rosmsg2-serialization (decodes the CDR, and encodes
// the Twist this client publishes as Foxglove's Teleop panel does). Prints what it saw as JSON
// for test_live_foxglove.py to check; throws (exit 1) on anything the libraries reject.
//
// usage: node foxglove_client.mjs URL SUBPROTOCOL SCENARIO [MCAP]
//   scenario "channels": subscribe to every channel for 2 s, decode every message; with MCAP,
//     also list the recording's channels (topic, schema name, schema text) to compare with.
//   scenario "teleop": drive /rover/cmd_vel for 1.5 s, then stop; report rover's odometry.
//   scenario "control": pause, single steps and speed through the server's parameters.
//   scenario "camera": subscribe to every camera_info channel for 1 s, then to the image_raw ones
//     too for 1.5 s; report every camera_info whole and every image without its pixels (with the
//     number of data bytes) for run_live_tests.py to check (tests/camera_info_check.py).
//   scenario "replay" (the server is `ubot play MCAP`): every message received is the
//     recording's, byte for byte at its log time; pause, seek (with the channels' state at the
//     new time sent at once) and speed; commands and bad seeks get status messages.
import { readFileSync } from "node:fs";
import wsProtocol from "@foxglove/ws-protocol";
import { parse } from "@foxglove/rosmsg";
import { MessageReader, MessageWriter } from "@foxglove/rosmsg2-serialization";
import { McapStreamReader } from "@mcap/core";
import WebSocket from "ws";

const { FoxgloveClient } = wsProtocol;
const [url, subprotocol, scenario, mcapPath] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function plain(value) {
  if (typeof value === "bigint") return Number(value);
  if (ArrayBuffer.isView(value)) return Array.from(value.subarray(0, 8), plain);
  if (Array.isArray(value)) return value.slice(0, 8).map(plain);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

// As plain(), but arrays whole (a CameraInfo's d, k, r and p).
function whole(value) {
  if (typeof value === "bigint") return Number(value);
  if (ArrayBuffer.isView(value) || Array.isArray(value)) return Array.from(value, whole);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, whole(v)]));
  }
  return value;
}

const client = new FoxgloveClient({ ws: new WebSocket(url, [subprotocol]) });
const channels = new Map();
const readers = new Map();
const bySubscription = new Map();
const seen = {};  // topic -> {count, first, last, schemaName}
const statuses = [];
const parameters = {};
let serverInfo = null;
let protocol = null;
let lastTime = null;
let cameraMessages = null;  // scenario "camera": [{topic, schemaName, timestamp, msg}]

client.on("serverInfo", (info) => { serverInfo = info; });
client.on("open", () => {});
client.on("error", (e) => { throw e; });
client.on("status", (s) => statuses.push(s));
client.on("time", (t) => { lastTime = Number(t.timestamp); });
client.on("parameterValues", (e) => { for (const p of e.parameters) parameters[p.name] = p.value; });
client.on("advertise", (list) => {
  for (const c of list) {
    channels.set(c.id, c);
    if (c.encoding === "cdr") {
      if (c.schemaEncoding !== "ros2msg") throw new Error(`${c.topic}: schemaEncoding ${c.schemaEncoding}`);
      readers.set(c.id, new MessageReader(parse(c.schema, { ros2: true })));
    }
  }
});
client.on("message", ({ subscriptionId, timestamp, data }) => {
  const c = channels.get(bySubscription.get(subscriptionId));
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const message = c.encoding === "cdr" ? readers.get(c.id).readMessage(bytes)
    : JSON.parse(new TextDecoder().decode(bytes));
  const entry = (seen[c.topic] ??= { count: 0, schemaName: c.schemaName, first: null });
  entry.count++;
  entry.timestamp = Number(timestamp);
  if (recording && c.topic !== "/ubot/playback") {
    const recorded = recording.get(`${c.topic} ${timestamp}`);
    if (!recorded) entry.unrecorded = (entry.unrecorded || 0) + 1;
    else if (!recorded.some((r) => Buffer.compare(Buffer.from(bytes), r) === 0)) entry.different = (entry.different || 0) + 1;
  }
  if (cameraMessages && /\/(camera_info|image_raw)$/.test(c.topic)) {
    const { data: pixels, ...rest } = message;  // an image's pixels: only their count
    if (pixels !== undefined) rest.dataLength = pixels.length;
    cameraMessages.push({ topic: c.topic, schemaName: c.schemaName, timestamp: Number(timestamp),
                          msg: whole(rest) });
  }
  if (c.topic === "/ubot/playback") entry.playback = message;
  if (c.topic === "/clock") entry.clock = Number(message.clock.sec) + Number(message.clock.nanosec) * 1e-9;
  if (!entry.first) entry.first = c.topic === "/ubot/world" ? { name: message.name } : plain(message);
  entry.last = c.topic.endsWith("/odom") ? plain(message) :
    c.topic === "/ubot/frame" ? { step: message.step, paused: message.paused, t: message.t } : null;
});

async function waitFor(condition, what, ms = 5000) {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function subscribeTo(filter) {
  for (const [id, c] of channels) {
    if (filter(c)) bySubscription.set(client.subscribe(id), id);
  }
}

// The recording's messages by "topic log_time" (an IMU has several per step: a list).
let recording = null;
function mcapMessages(path) {
  const reader = new McapStreamReader();
  reader.append(new Uint8Array(readFileSync(path)));
  const topics = new Map();
  const out = new Map();
  for (let record; (record = reader.nextRecord()); ) {
    if (record.type === "Channel") topics.set(record.id, record.topic);
    if (record.type !== "Message") continue;
    const key = `${topics.get(record.channelId)} ${record.logTime}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(Buffer.from(record.data));
  }
  return out;
}

function mcapChannels(path) {
  const reader = new McapStreamReader();
  reader.append(new Uint8Array(readFileSync(path)));
  const schemas = new Map();
  const out = [];
  for (let record; (record = reader.nextRecord()); ) {
    if (record.type === "Schema") schemas.set(record.id, record);
    if (record.type === "Channel") {
      const s = schemas.get(record.schemaId);
      out.push({ topic: record.topic, encoding: record.messageEncoding, schemaName: s.name,
                 schemaEncoding: s.encoding, schema: new TextDecoder().decode(s.data) });
    }
  }
  return out;
}

if (scenario === "replay") recording = mcapMessages(mcapPath);
await waitFor(() => serverInfo && channels.size > 0, "serverInfo and advertise");
await sleep(200);  // channels made at the first step arrive in later advertise messages
const result = { serverInfo, statuses };

if (scenario === "channels") {
  subscribeTo(() => true);
  await sleep(2500);
  result.channels = [...channels.values()].map(({ id, ...c }) => c);
  result.seen = seen;
  result.lastTime = lastTime;
  if (mcapPath) result.mcap = mcapChannels(mcapPath);
} else if (scenario === "camera") {
  cameraMessages = [];
  subscribeTo((c) => c.topic.endsWith("/camera_info"));
  await sleep(1000);
  subscribeTo((c) => c.topic.endsWith("/image_raw"));
  await sleep(1500);
  result.camera = cameraMessages;
} else if (scenario === "teleop") {
  subscribeTo((c) => c.topic === "/rover/odom");
  const twist = parse(
    "geometry_msgs/Vector3 linear\ngeometry_msgs/Vector3 angular\n" +
    "================================================================================\n" +
    "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n", { ros2: true });
  const writer = new MessageWriter(twist);
  const cmd = client.advertise({ topic: "/rover/cmd_vel", encoding: "cdr",
                                 schemaName: "geometry_msgs/msg/Twist" });
  const command = { linear: { x: 0.4, y: 0, z: 0 }, angular: { x: 0, y: 0, z: -0.7 } };
  await waitFor(() => seen["/rover/odom"], "rover's odometry");
  result.before = seen["/rover/odom"].last;
  for (let i = 0; i < 15; i++) {
    client.sendMessage(cmd, writer.writeMessage(command));
    await sleep(100);
  }
  result.driven = seen["/rover/odom"].last;
  // A wrong schema on the same topic: refused with a status message, the run goes on.
  const wrong = client.advertise({ topic: "/rover/cmd_vel", encoding: "cdr",
                                   schemaName: "std_msgs/msg/String" });
  client.sendMessage(wrong, new Uint8Array([0, 1, 0, 0, 2, 0, 0, 0, 104, 0]));
  // No more commands: past the receiver's timeout (0.5 s) the robot's behaviour takes over.
  await sleep(1500);
  result.released = seen["/rover/odom"].last;
} else if (scenario === "control") {
  subscribeTo((c) => c.topic === "/ubot/frame" || c.topic === "/clock");
  await waitFor(() => seen["/ubot/frame"], "a frame");
  client.setParameters([{ name: "/ubot/paused", value: true }], "pause");
  await waitFor(() => parameters["/ubot/paused"] === true, "paused");
  await sleep(400);
  const pausedStep = seen["/ubot/frame"].last.step;
  await sleep(600);
  result.pausedSteps = [pausedStep, seen["/ubot/frame"].last.step];
  const clockBefore = seen["/clock"].count;
  client.setParameters([{ name: "/ubot/step", value: 3 }], "step");
  await sleep(800);
  result.afterStep = seen["/ubot/frame"].last.step;
  result.clockMessagesForSteps = seen["/clock"].count - clockBefore;
  client.setParameters([{ name: "/ubot/speed", value: "fast" }], "bad speed");
  client.setParameters([{ name: "/ubot/speed", value: 0 }, { name: "/ubot/paused", value: false }], "max");
  await sleep(1000);
  result.fastSteps = seen["/ubot/frame"].last.step - result.afterStep;
  client.getParameters([], "all");
  await sleep(200);
  result.parameters = parameters;
}
if (scenario === "replay") {
  result.channels = [...channels.values()].map(({ id, ...c }) => c);
  result.mcap = mcapChannels(mcapPath);
  subscribeTo(() => true);
  const playback = () => seen["/ubot/playback"]?.playback;
  await waitFor(() => playback() && seen["/clock"], "the playback and its clock");
  // Paused before the recording's end (4 s at 1x): the clock stands still.
  client.setParameters([{ name: "/ubot/paused", value: true }], "pause");
  await waitFor(() => playback().paused, "paused");
  await sleep(200);
  const pausedAt = [seen["/clock"].clock, seen["/clock"].count];
  await sleep(600);
  result.paused = { before: pausedAt, after: [seen["/clock"].clock, seen["/clock"].count],
                    t: playback().t };
  // Seek while paused: each subscribed channel's latest message at or before 1.5 s comes at once.
  const counts = Object.fromEntries(Object.entries(seen).map(([t, e]) => [t, e.count]));
  client.setParameters([{ name: "/ubot/seek", value: 1.5 }], "seek");
  await waitFor(() => playback().t === 1.5, "the seek");
  await sleep(300);
  result.seek = { clock: seen["/clock"].clock, t: playback().t,
                  backfilled: Object.keys(seen).filter((t) => seen[t].count > (counts[t] ?? 0)) };
  // Bad input: a seek past the end, a speed out of range, a command.
  client.setParameters([{ name: "/ubot/seek", value: 99 }], "bad seek");
  client.setParameters([{ name: "/ubot/speed", value: -1 }], "bad speed");
  const cmd = client.advertise({ topic: "/rover/cmd_vel", encoding: "json", schemaName: "geometry_msgs/msg/Twist" });
  client.sendMessage(cmd, new TextEncoder().encode(JSON.stringify({ linear: { x: 1, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } })));
  // As fast as possible to the end, where it pauses.
  client.setParameters([{ name: "/ubot/speed", value: 0 }, { name: "/ubot/paused", value: false }], "max");
  await waitFor(() => playback().paused && playback().t === playback().end, "the end", 10000);
  result.end = { playback: playback(), clock: seen["/clock"].clock };
  result.seen = Object.fromEntries(Object.entries(seen).map(([t, e]) =>
    [t, { count: e.count, unrecorded: e.unrecorded || 0, different: e.different || 0 }]));
}
client.close();
// Exit once the result is written: console.log to a pipe is asynchronous, and exiting at once
// cut the output at 64 KiB (the world's markers made it longer).
process.stdout.write(JSON.stringify(result) + "\n", () => process.exit(0));
