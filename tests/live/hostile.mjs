// Hostile clients of the live server, with the `ws` client and raw sockets: frames the
// protocol does not define, an oversized frame, a flood of publishes, 200 connections at once,
// a client that never reads, a slow-loris HTTP request. After each, a well-behaved client must
// still be served (the run goes on). Prints JSON for run_live_tests.py.
//
// usage: node hostile.mjs HOST PORT PID
import net from "node:net";
import { readFileSync } from "node:fs";
import WebSocket from "ws";

const [host, port, pid] = process.argv.slice(2);
const url = `ws://${host}:${port}/`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
const result = {};

function open(protocols = ["foxglove.websocket.v1"]) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const client = { ws, texts: [], binaries: 0, channels: new Map(), closed: false };
    ws.on("message", (data, isBinary) => {
      if (isBinary) { client.binaries++; return; }
      const m = JSON.parse(data.toString());
      client.texts.push(m);
      if (m.op === "advertise") for (const c of m.channels) client.channels.set(c.topic, c.id);
    });
    ws.on("open", () => resolve(client));
    ws.on("close", () => { client.closed = true; });
    ws.on("error", reject);
  });
}

// A well-behaved client: subscribes to /clock and sees it tick.
async function healthy() {
  const c = await open();
  const until = Date.now() + 3000;
  while (!c.channels.has("/clock") && Date.now() < until) await sleep(20);
  c.ws.send(JSON.stringify({ op: "subscribe", subscriptions: [{ id: 1, channelId: c.channels.get("/clock") }] }));
  await sleep(500);
  const n = c.binaries;
  c.ws.close();
  return n > 0;
}

// 1. Frames the protocol does not define: each gets a status message; the connection stays.
{
  const c = await open();
  await sleep(200);
  const bad = ["not json", "[1,2]", "{}", '{"op":"nope"}', '{"op":"subscribe","subscriptions":[{"id":"x","channelId":0}]}',
    '{"op":"subscribe","subscriptions":[{"id":7,"channelId":99999}]}', '{"op":"unsubscribe","subscriptionIds":[42]}',
    '{"op":"advertise","channels":[{"id":1,"topic":"/x","encoding":"protobuf","schemaName":"X"}]}',
    '{"op":"fetchAsset","uri":"x","requestId":1}', '{"op":"subscribeConnectionGraph"}'];
  for (const text of bad) c.ws.send(text);
  for (const bytes of [[7], [1, 0], [2, 0, 0, 0, 0], [1, 9, 0, 0, 0, 1, 2]]) c.ws.send(Buffer.from(bytes));
  await sleep(500);
  const statuses = c.texts.filter((m) => m.op === "status");
  result.malformed = { sent: bad.length + 4, statuses: statuses.length, open: !c.closed,
                       messages: statuses.map((s) => s.message) };
  c.ws.close();
}
result.healthyAfterMalformed = await healthy();

// 2. An oversized frame (2 MiB > the 1 MiB limit): that connection goes, the server stays.
{
  const c = await open();
  c.ws.send("x".repeat(2 << 20));
  await sleep(500);
  result.oversized = { closed: c.closed };
}
result.healthyAfterOversized = await healthy();

// 3. A flood of publishes on a robot's cmd_vel.
{
  const c = await open();
  c.ws.send(JSON.stringify({ op: "advertise", channels: [{ id: 5, topic: "/rover/cmd_vel", encoding: "json",
                                                             schemaName: "geometry_msgs/msg/Twist" }] }));
  const body = Buffer.from(JSON.stringify({ linear: { x: 0.1 }, angular: { z: 0 } }));
  const frame = Buffer.concat([Buffer.from([1, 5, 0, 0, 0]), body]);
  const before = rssKiB();
  for (let i = 0; i < 50000; i++) c.ws.send(frame);
  await sleep(1500);
  result.flood = { rssGrowthKiB: rssKiB() - before, open: !c.closed,
                   dropped: c.texts.some((m) => m.op === "status" && /wait for the next step/.test(m.message)) };
  c.ws.close();
}
result.healthyAfterFlood = await healthy();

// 4. 200 connections at once, each subscribed to everything.
{
  const clients = await Promise.all(Array.from({ length: 200 }, () => open()));
  await sleep(500);
  for (const c of clients) {
    let id = 1;
    c.ws.send(JSON.stringify({ op: "subscribe", subscriptions: [...c.channels.values()].map((channelId) => ({ id: id++, channelId })) }));
  }
  await sleep(1500);
  result.many = { connected: clients.filter((c) => !c.closed).length,
                  served: clients.filter((c) => c.binaries > 0).length };
  for (const c of clients) c.ws.close();
  await sleep(300);
}
result.healthyAfterMany = await healthy();

// 5. A client that subscribes to everything and never reads: the server keeps its queue bounded
// and goes on serving the others.
{
  const socket = net.connect(Number(port), host);
  await new Promise((r) => socket.on("connect", r));
  socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
               "Sec-WebSocket-Protocol: foxglove.websocket.v1\r\n\r\n");
  await sleep(300);
  // A masked client text frame: subscribe to channels 0 … 40.
  const text = Buffer.from(JSON.stringify({ op: "subscribe", subscriptions: Array.from({ length: 40 }, (_, i) => ({ id: i, channelId: i })) }));
  const mask = Buffer.from([1, 2, 3, 4]);
  const header = text.length < 126 ? Buffer.from([0x81, 0x80 | text.length]) :
    Buffer.from([0x81, 0x80 | 126, text.length >> 8, text.length & 255]);
  const payload = Buffer.from(text.map((b, i) => b ^ mask[i % 4]));
  socket.write(Buffer.concat([header, mask, payload]));
  socket.pause();  // never read again
  const before = rssKiB();
  await sleep(4000);
  result.neverReads = { rssGrowthKiB: rssKiB() - before, othersServed: await healthy() };
  socket.destroy();
}

// 6. A slow-loris HTTP request: one byte a second. The server closes it after its request
// timeout, and serves others meanwhile.
{
  const socket = net.connect(Number(port), host);
  let closedAt = null;
  const start = Date.now();
  socket.on("close", () => { closedAt = Date.now(); });
  socket.on("error", () => {});
  await new Promise((r) => socket.on("connect", r));
  const request = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(100);
  let i = 0;
  const timer = setInterval(() => { if (!socket.destroyed && i < request.length) socket.write(request[i++]); }, 1000);
  await sleep(1500);
  const others = await healthy();
  while (closedAt === null && Date.now() - start < 15000) await sleep(100);
  clearInterval(timer);
  result.slowLoris = { closedAfterS: closedAt === null ? null : (closedAt - start) / 1000, othersServed: others };
  socket.destroy();
}

// 7. No Foxglove subprotocol: refused with 400 before the upgrade.
result.noSubprotocol = await new Promise((resolve) => {
  const ws = new WebSocket(url, ["something.else"]);
  ws.on("unexpected-response", (_req, res) => resolve(res.statusCode));
  ws.on("open", () => resolve("open"));
  ws.on("error", () => resolve("error"));
});
// Exit once the result is written: console.log to a pipe is asynchronous, and exiting at once
// cut the output at 64 KiB (the world's markers made it longer).
process.stdout.write(JSON.stringify(result) + "\n", () => process.exit(0));
