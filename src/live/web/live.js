// The ubot live page: a Foxglove WebSocket protocol client (foxglove/ws-protocol v1) of the
// server that served it. It draws the world top-down on a canvas from the marker channels
// (scene.js, decoded through their schemas by Foxglove's reader), and steers the run: pause /
// step / speed as the server's parameters, the selected robot's cmd_vel (a JSON
// geometry_msgs/msg/Twist on its topic, as Foxglove's Teleop panel sends one), the selection on
// /ubot/select. The page's JSON channels say what the markers cannot: which object is which and
// where (/ubot/world once, /ubot/frame while the run goes: for picking, the run's status and the
// selected object's detail). The selected robot's camera images, IMU traces and 3D lidar points
// come from its ROS 2 channels (sensors.js). When the server is `ubot play` (it advertises
// /ubot/playback) the page shows the recording: its markers, grid, scans and robots, with a seek
// bar. Standard web APIs only, and Foxglove's message reader; no network beyond the server.
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/` +
    (token ? `?token=${encodeURIComponent(token)}` : "");
  const canvas = document.getElementById("world");
  const ctx = canvas.getContext("2d");
  const $ = (id) => document.getElementById(id);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const COMMAND_PERIOD_MS = 100;   // cmd_vel while a key or the joystick is held

  let ws = null;
  let connected = false;
  let nextSubscription = 1;
  let nextClientChannel = 1;
  const subscriptions = new Map();  // subscription id -> topic
  const clientChannels = new Map(); // topic -> client channel id
  const channels = new Map();       // advertised topic -> channel
  const sensorViews = new Map();    // subscription id -> the selected robot's sensor view
  let world = null;                 // /ubot/world
  let frame = null;                 // latest /ubot/frame
  let frames = 0;
  const scene = window.ubotScene.create();  // what the marker channels say (scene.js)
  let selected = null;              // object id (a recording's robot: its namespace)
  let lastCommand = null;           // the latest Twist sent, for the tests
  let commandsSent = 0;
  let lastStatus = "";
  let replay = false;               // the server plays a recording (ubot play)
  const view = { cx: 0, cy: 0, scale: 40, fitted: false };
  let dirty = true;

  // ---- protocol ------------------------------------------------------------------------------
  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function connect() {
    ws = new WebSocket(wsUrl, ["foxglove.websocket.v1"]);
    ws.binaryType = "arraybuffer";
    ws.onopen = () => { connected = true; setStatus("connected", false); };
    ws.onclose = () => {
      connected = false;
      subscriptions.clear();
      clientChannels.clear();
      channels.clear();
      sensorViews.clear();
      scene.clear();
      $("sensors").dataset.names = "";
      setStatus("disconnected: reconnecting…", true);
      setTimeout(connect, 1000);
    };
    ws.onmessage = (event) => {
      if (typeof event.data === "string") onText(JSON.parse(event.data));
      else onBinary(event.data);
    };
  }

  function onText(message) {
    switch (message.op) {
      case "serverInfo":
        setStatus(`connected to ${message.name}`, false);
        break;
      case "advertise":
        for (const channel of message.channels) channels.set(channel.topic, channel);
        if (!replay && channels.has("/ubot/playback")) startReplay();
        for (const channel of message.channels) subscribeDrawn(channel);
        break;
      case "unadvertise":
        for (const [topic, c] of channels) if (message.channelIds.includes(c.id)) channels.delete(topic);
        break;
      case "status":
        lastStatus = message.message;
        if (message.level >= 1) setStatus(message.message, true);
        break;
      case "parameterValues":
        for (const p of message.parameters) {
          if (p.name === "/ubot/paused") $("play").textContent = p.value ? "play" : "pause";
          if (p.name === "/ubot/speed") $("speed").value = String(p.value);
        }
        break;
    }
  }

  function subscribe(channel) {
    const id = nextSubscription++;
    subscriptions.set(id, channel.topic);
    send({ op: "subscribe", subscriptions: [{ id, channelId: channel.id }] });
    return id;
  }

  function unsubscribe(id) {
    subscriptions.delete(id);
    send({ op: "unsubscribe", subscriptionIds: [id] });
  }

  function onBinary(buffer) {
    const data = new DataView(buffer);
    if (data.getUint8(0) !== 1) return;  // time frames: the frame carries the time
    const subscription = data.getUint32(1, true);
    const sensor = sensorViews.get(subscription);
    if (sensor) {  // CDR of a ROS 2 channel
      sensor.onMessage(decode(channels.get(sensor.topic), buffer));
      return;
    }
    const topic = subscriptions.get(subscription);
    const channel = channels.get(topic);
    if (!channel) return;
    if (channel.encoding === "json") {
      const message = JSON.parse(decoder.decode(new Uint8Array(buffer, 13)));
      if (topic === "/ubot/world") setWorld(message);
      else if (topic === "/ubot/frame") setFrame(message);
      else if (topic === "/ubot/playback") setPlayback(message);
    } else {
      scene.onMessage(topic, channel.schemaName, decode(channel, buffer));
    }
    dirty = true;
  }

  // A Message Data frame's ROS 2 message, decoded through its channel's schema by Foxglove's
  // reader (ros2_reader.js, made once per channel). The payload is copied out of the frame: it
  // starts at byte 13, where the reader's typed arrays (float32[], float64[]) could not view it.
  function decode(channel, frame) {
    if (!channel.read) channel.read = window.ubotRos2.reader(channel.schemaName, channel.schema);
    return channel.read(new Uint8Array(frame.slice(13)));
  }

  function publish(topic, schemaName, message) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    let id = clientChannels.get(topic);
    if (id === undefined) {
      id = nextClientChannel++;
      clientChannels.set(topic, id);
      send({ op: "advertise", channels: [{ id, topic, encoding: "json", schemaName }] });
    }
    const body = encoder.encode(JSON.stringify(message));
    const bytes = new Uint8Array(5 + body.length);
    bytes[0] = 1;
    new DataView(bytes.buffer).setUint32(1, id, true);
    bytes.set(body, 5);
    ws.send(bytes);
  }

  function setParameter(name, value) {
    send({ op: "setParameters", parameters: [{ name, value }], id: `set-${name}` });
  }

  function setStatus(text, bad) {
    const el = $("status");
    el.textContent = text;
    el.classList.toggle("bad", bad);
  }

  // ---- state ---------------------------------------------------------------------------------
  function setWorld(w) {
    world = w;
    $("world-name").textContent = w.name || "ubot";
    if (!view.fitted) fit();
    // IR-SIM's keyboard worlds drive robot 0: it is selected from the start.
    if (selected === null && w.controlMode === "keyboard") {
      const robot = w.objects.find((o) => o.role === "robot");
      if (robot) select(robot.id);
    }
    showDriveTarget();
    dirty = true;
  }

  function setFrame(f) {
    frame = f;
    frames++;
    $("play").textContent = f.paused ? "play" : "pause";
    $("clock").textContent = `t = ${f.t.toFixed(2)} s · step ${f.step} · ` +
      `${f.rtf.toFixed(2)}× real time · ${Math.round(f.sps)} steps/s`;
    updatePanel();
    dirty = true;
  }

  // ---- a recording (ubot play) ---------------------------------------------------------------
  function startReplay() {
    replay = true;
    $("seek").hidden = false;
    $("step").hidden = true;
    $("joystick").hidden = true;
    $("hint").textContent = "A recording (ubot play): click a robot to see its odometry, scans and " +
      "sensors; drag the bar to seek.";
    // A replay draws more than a live run (scans, transforms, odometry): the channels advertised
    // before /ubot/playback are looked at again.
    for (const channel of channels.values()) subscribeDrawn(channel);
  }

  // The channels the page reads whoever selects what: its JSON channels and those it draws.
  function subscribeDrawn(channel) {
    const wanted = ["/ubot/world", "/ubot/frame", "/ubot/playback"].includes(channel.topic) ||
      scene.wants(channel.schemaName, !replay);
    if (wanted && ![...subscriptions.values()].includes(channel.topic)) subscribe(channel);
  }

  function setPlayback(p) {
    scene.setPlayback(p);
    $("world-name").textContent = `replay: ${p.file.split("/").pop()}`;
    $("world-name").title = p.file;
    $("play").textContent = p.paused ? "play" : "pause";
    const seek = $("seek");
    seek.min = String(p.start);
    seek.max = String(p.end);
    if (!seek.matches(":active")) seek.value = String(p.t);
    $("clock").textContent = `t = ${p.t.toFixed(2)} s (${p.start.toFixed(2)} … ${p.end.toFixed(2)}) · ` +
      `${p.speed === 0 ? "max" : `${p.speed}×`}${p.paused ? " · paused" : ""}`;
    updatePanel();
  }

  // The selected robot's panel: its odometry, a polar plot per scan, and the sensor views of
  // its other channels (sensors.js), subscribed while it is selected.

  function updateReplayPanel() {
    const o = selected !== null ? scene.odom(selected) : null;
    $("sel-name").textContent = selected !== null ? `${selected} (recorded robot)` : "nothing selected";
    const rows = o ? [["pose", [o.x, o.y, o.yaw].map(fmt).join(", ")],
      ["velocity", [o.vx, o.vy, o.wz].map(fmt).join(", ")],
      ["stamp", `${o.header.sec}.${String(o.header.nanosec).padStart(9, "0")}`]] : [];
    $("sel-state").replaceChildren(...rows.map(([k, v]) => {
      const tr = document.createElement("tr");
      tr.append(Object.assign(document.createElement("td"), { textContent: k }),
        Object.assign(document.createElement("td"), { textContent: String(v) }));
      return tr;
    }));
    const prefix = selected === null ? null : `${selected === "/" ? "" : selected}/`;
    const topics = prefix === null ? [] : [...channels.values()].filter((c) => c.topic.startsWith(prefix) &&
      (c.schemaName === "sensor_msgs/msg/LaserScan" || window.ubotSensors.shows(c.schemaName)));
    const sensors = $("sensors");
    const wanted = topics.map((c) => c.topic).join("|");
    if (sensors.dataset.names !== wanted) {
      sensors.dataset.names = wanted;
      for (const id of sensorViews.keys()) unsubscribe(id);
      sensorViews.clear();
      sensors.replaceChildren(...topics.map((c) => {
        const div = document.createElement("div");
        div.className = "sensor";
        const name = c.topic.slice(prefix.length);
        div.append(Object.assign(document.createElement("h3"), { textContent: `${name} (${c.schemaName})` }));
        if (c.schemaName === "sensor_msgs/msg/LaserScan") {
          div.append(Object.assign(document.createElement("canvas"), { width: 260, height: 260, id: `scan-${name}` }));
        } else {
          const view = window.ubotSensors.view(c.schemaName);
          view.canvas.id = `view-${name}`;
          view.topic = c.topic;
          sensorViews.set(subscribe(c), view);
          div.append(view.canvas);
        }
        return div;
      }));
    }
    for (const c of topics) {
      const scan = c.schemaName === "sensor_msgs/msg/LaserScan" && scene.scan(c.topic);
      if (!scan) continue;
      const polar = [];
      scan.ranges.forEach((r, i) => {
        if (Number.isFinite(r) && r < scan.rangeMax) polar.push(scan.angleMin + i * scan.increment, r);
      });
      drawScan($(`scan-${c.topic.slice(prefix.length)}`), polar);
    }
  }

  // ---- view ----------------------------------------------------------------------------------
  function fit() {
    const bounds = replay ? scene.bounds() : world && world.bounds;
    if (!bounds) return;
    const [x, y, w, h] = bounds;
    view.cx = x + w / 2;
    view.cy = y + h / 2;
    view.scale = Math.min(canvas.width / w, canvas.height / h) * 0.95;
    view.fitted = true;
  }
  const sx = (x) => (x - view.cx) * view.scale + canvas.width / 2;
  const sy = (y) => canvas.height / 2 - (y - view.cy) * view.scale;
  const wx = (px) => (px - canvas.width / 2) / view.scale + view.cx;
  const wy = (py) => view.cy - (py - canvas.height / 2) / view.scale;

  function resize() {
    const rect = canvas.getBoundingClientRect();
    canvas.width = Math.max(100, Math.round(rect.width));
    canvas.height = Math.max(100, Math.round(rect.height));
    if (!view.fitted) fit();
    dirty = true;
  }

  // ---- drawing -------------------------------------------------------------------------------
  function shapePath(s) {
    ctx.beginPath();
    if (s.c) {
      ctx.arc(sx(s.c[0]), sy(s.c[1]), Math.max(s.r * view.scale, 1), 0, 2 * Math.PI);
    } else {
      for (let i = 0; i < s.p.length; i += 2) {
        if (i === 0) ctx.moveTo(sx(s.p[0]), sy(s.p[1]));
        else ctx.lineTo(sx(s.p[i]), sy(s.p[i + 1]));
      }
      if (s.closed) ctx.closePath();
    }
  }

  function draw() {
    requestAnimationFrame(draw);
    if (!dirty) return;
    dirty = false;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!view.fitted) fit();
    if (world && !replay) {
      const [bx, by, bw, bh] = world.bounds;
      ctx.strokeStyle = "#999";
      ctx.lineWidth = 1;
      ctx.strokeRect(sx(bx), sy(by + bh), bw * view.scale, bh * view.scale);
    }
    scene.draw(ctx, { sx, sy, scale: view.scale }, replay ? selected : null);
    // A live run's selected object: outlined where the frame says it is.
    const shown = !replay && selected !== null && objectShape(selected);
    if (shown) {
      shapePath(shown);
      ctx.lineWidth = 3;
      ctx.strokeStyle = "#1e90ff";
      ctx.stroke();
    }
  }

  // ---- selection and the panel ---------------------------------------------------------------
  function inside(s, x, y) {
    if (s.c) return Math.hypot(x - s.c[0], y - s.c[1]) <= Math.max(s.r, 4 / view.scale);
    const p = s.p;
    if (!s.closed) {
      for (let i = 0; i + 3 < p.length; i += 2) {
        if (segmentDistance(x, y, p[i], p[i + 1], p[i + 2], p[i + 3]) < 5 / view.scale) return true;
      }
      return false;
    }
    let hit = false;
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      if ((p[i + 1] > y) !== (p[j + 1] > y) &&
          x < ((p[j] - p[i]) * (y - p[i + 1])) / (p[j + 1] - p[i + 1]) + p[i]) hit = !hit;
    }
    return hit;
  }

  function segmentDistance(x, y, x0, y0, x1, y1) {
    const dx = x1 - x0, dy = y1 - y0;
    const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy || 1)));
    return Math.hypot(x - x0 - t * dx, y - y0 - t * dy);
  }

  function objectShape(id) {
    const o = (frame ? frame.objects : []).find((x) => x.id === id) ||
      (world ? world.static : []).find((x) => x.id === id);
    return o ? o.shape : null;
  }

  function objectAt(x, y) {
    const moving = frame ? frame.objects : [];
    for (let i = moving.length - 1; i >= 0; i--) if (inside(moving[i].shape, x, y)) return moving[i].id;
    const fixed = world ? world.static : [];
    for (let i = fixed.length - 1; i >= 0; i--) if (inside(fixed[i].shape, x, y)) return fixed[i].id;
    return null;
  }

  function select(id) {
    selected = id;
    if (replay) {  // a recording's robot, by namespace: nothing to tell the server
      updatePanel();
      dirty = true;
      return;
    }
    publish("/ubot/select", "ubot/Select", { ids: id === null ? [] : [id] });
    updatePanel();
    showDriveTarget();
    dirty = true;
  }

  const fmt = (v) => (typeof v === "number" ? v.toFixed(3) : String(v));

  function updatePanel() {
    if (replay) { updateReplayPanel(); return; }
    const info = world && selected !== null ? world.objects[selected] : null;
    $("sel-name").textContent = info ? `${info.name} (${info.role}, ${info.kinematics})` :
      "nothing selected";
    const detail = frame && frame.detail.find((d) => d.id === selected);
    const rows = [];
    if (detail) {
      rows.push(["state", detail.state.map(fmt).join(", ")]);
      rows.push(["velocity", detail.velocity.map(fmt).join(", ")]);
      rows.push(["goal", detail.goal ? detail.goal.map(fmt).join(", ") : "—"]);
      rows.push(["arrived", detail.arrive], ["collision", detail.collision], ["stopped", detail.stop]);
      if (info && info.cmdVel) rows.push(["cmd_vel", info.cmdVel]);
    }
    $("sel-state").replaceChildren(...rows.map(([k, v]) => {
      const tr = document.createElement("tr");
      tr.append(Object.assign(document.createElement("td"), { textContent: k }),
        Object.assign(document.createElement("td"), { textContent: String(v) }));
      return tr;
    }));
    const sensors = $("sensors");
    const wanted = detail ? `${selected}:` + detail.sensors.map((s) => s.name).join("|") : "";
    if (sensors.dataset.names !== wanted) {
      sensors.dataset.names = wanted;
      showSensors(info, detail ? detail.sensors : []);
    }
    if (detail) for (const s of detail.sensors) if (s.scan) drawScan($(`scan-${s.name}`), s.scan);  // null: a camera
  }

  // The robot's namespace: its cmd_vel topic's, else its name's.
  function robotNamespace(info) {
    if (info.cmdVel && info.cmdVel.endsWith("/cmd_vel")) return info.cmdVel.slice(0, -"/cmd_vel".length);
    return `/${info.name.replace(/[^A-Za-z0-9_]/g, "_")}`;
  }

  // A panel section per sensor: a scan plot (from the frame) and, for the types sensors.js
  // shows, a view of its ROS 2 channel, subscribed while the robot is selected.
  function showSensors(info, list) {
    for (const id of sensorViews.keys()) unsubscribe(id);
    sensorViews.clear();
    $("sensors").replaceChildren(...list.map((s) => {
      const div = document.createElement("div");
      div.className = "sensor";
      div.append(Object.assign(document.createElement("h3"), { textContent: `${s.name} (${s.type})` }));
      // A camera's "scan" is its frustum's edges: its image says more.
      if (s.scan && !s.type.endsWith("_camera")) {
        div.append(Object.assign(document.createElement("canvas"), { width: 260, height: 260, id: `scan-${s.name}` }));
      }
      const topic = info && window.ubotSensors.topicOf(robotNamespace(info), s, channels);
      const view = topic && window.ubotSensors.view(channels.get(topic).schemaName);
      if (view) {
        view.canvas.id = `view-${s.name}`;
        view.topic = topic;
        sensorViews.set(subscribe(channels.get(topic)), view);
        div.append(view.canvas);
      }
      return div;
    }));
  }

  // The latest scan as a polar plot: the robot at the centre, x ahead (up).
  function drawScan(c, scan) {
    if (!c) return;
    const g = c.getContext("2d");
    g.fillStyle = "#fff";
    g.fillRect(0, 0, c.width, c.height);
    let maxRange = 0;
    for (let i = 1; i < scan.length; i += 2) maxRange = Math.max(maxRange, scan[i]);
    if (maxRange <= 0) return;
    const k = (c.width / 2 - 6) / maxRange, cx = c.width / 2, cy = c.height / 2;
    g.strokeStyle = "#ddd";
    for (const f of [0.5, 1]) { g.beginPath(); g.arc(cx, cy, f * maxRange * k, 0, 2 * Math.PI); g.stroke(); }
    g.fillStyle = "#d22";
    for (let i = 0; i < scan.length; i += 2) {
      const a = scan[i], r = scan[i + 1];
      g.fillRect(cx - r * k * Math.sin(a) - 1, cy - r * k * Math.cos(a) - 1, 2, 2);
    }
    g.fillStyle = "#357";
    g.fillRect(cx - 2, cy - 2, 4, 4);
  }

  // ---- driving -------------------------------------------------------------------------------
  const keys = new Set();
  const joystick = { active: false, x: 0, y: 0 };  // x right, y forward, each in [-1, 1]
  let driving = false;

  // What the keys and the joystick drive: the selected robot, or with nothing selected the first
  // robot that takes commands (IR-SIM's keyboard control drives robot 0). Null: nothing can be
  // driven (an obstacle is selected, or no robot takes commands).
  function commandTopic() {
    if (!world) return null;
    if (selected !== null) {
      const info = world.objects[selected];
      return info && info.cmdVel ? info : null;
    }
    return world.objects.find((o) => o && o.role === "robot" && o.cmdVel) || null;
  }

  function showDriveTarget() {
    const info = replay ? null : commandTopic();
    $("drives").textContent = info ? `keys drive: ${info.name}` : "keys drive: nothing";
  }

  // IR-SIM's keys: full speed within the robot's limits (vel_max ahead / left, vel_min back /
  // right); the last component of the limits is the turn rate, the second an omni's sideways.
  function twist() {
    const info = commandTopic();
    if (!info) return stopTwist();  // nothing that takes commands: a key drives nothing
    const vmax = info.velMax && info.velMax.length ? info.velMax : [1, 1];
    const vmin = info.velMin && info.velMin.length ? info.velMin : vmax.map((v) => -v);
    const scale = (k, max, min) => (k >= 0 ? k * Math.abs(max) : k * Math.abs(min));
    let forward = (keys.has("w") ? 1 : 0) - (keys.has("s") ? 1 : 0);
    let turn = (keys.has("a") ? 1 : 0) - (keys.has("d") ? 1 : 0);
    let side = (keys.has("q") ? 1 : 0) - (keys.has("e") ? 1 : 0);
    if (joystick.active) {
      forward = joystick.y;
      if (info.kinematics === "omni") side = -joystick.x; else turn = -joystick.x;
    }
    const omni = info.kinematics.startsWith("omni");
    // A plain omni robot has no turn rate: its two velocities are x and y.
    if (info.kinematics === "omni") turn = 0;
    const last = vmax.length - 1;
    return {
      linear: { x: scale(forward, vmax[0], vmin[0]), y: omni ? scale(side, vmax[1], vmin[1]) : 0, z: 0 },
      angular: { x: 0, y: 0, z: info.kinematics === "omni" ? 0 : scale(turn, vmax[last], vmin[last]) },
    };
  }

  function sendCommand(message) {
    const info = commandTopic();
    if (!info) return;
    publish(info.cmdVel, "geometry_msgs/msg/Twist", message);
    lastCommand = { topic: info.cmdVel, twist: message };
    commandsSent++;
  }

  setInterval(() => {
    if (!commandTopic()) return;
    const held = keys.size > 0 || joystick.active;
    if (held) { sendCommand(twist()); driving = true; }
    else if (driving) { sendCommand(stopTwist()); driving = false; }  // released: stop once
  }, COMMAND_PERIOD_MS);

  const stopTwist = () => ({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
  const DRIVE_KEYS = new Set(["w", "a", "s", "d", "q", "e"]);

  window.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.ctrlKey || event.metaKey) return;
    const key = event.key.toLowerCase();
    if (DRIVE_KEYS.has(key)) {
      keys.add(key);
      if (!event.repeat) sendCommand(twist());  // at once, not at the next tick
      driving = true;
      event.preventDefault();
    } else if (key === " ") {
      keys.clear();
      sendCommand(stopTwist());
      event.preventDefault();
    } else if (key === "p") {
      $("play").click();
    } else if (key === "n" && !replay) {
      $("step").click();
    }
  });
  window.addEventListener("keyup", (event) => keys.delete(event.key.toLowerCase()));
  window.addEventListener("blur", () => keys.clear());

  const pad = $("joystick"), knob = $("knob");
  function moveKnob(event) {
    const r = pad.getBoundingClientRect();
    let x = (event.clientX - r.left - r.width / 2) / (r.width / 2);
    let y = -(event.clientY - r.top - r.height / 2) / (r.height / 2);
    const n = Math.hypot(x, y);
    if (n > 1) { x /= n; y /= n; }
    joystick.x = x;
    joystick.y = y;
    knob.style.left = `${45 + x * 45}px`;
    knob.style.top = `${45 - y * 45}px`;
  }
  pad.addEventListener("pointerdown", (e) => { joystick.active = true; pad.setPointerCapture(e.pointerId); moveKnob(e); });
  pad.addEventListener("pointermove", (e) => { if (joystick.active) moveKnob(e); });
  pad.addEventListener("pointerup", () => {
    joystick.active = false;
    knob.style.left = knob.style.top = "45px";
  });

  // ---- controls, pan and zoom ----------------------------------------------------------------
  $("play").addEventListener("click", () => {
    const playback = replay && scene.playback();
    setParameter("/ubot/paused", replay ? !(playback && playback.paused) : !(frame && frame.paused));
  });
  $("seek").addEventListener("change", (e) => setParameter("/ubot/seek", Number(e.target.value)));
  $("step").addEventListener("click", () => setParameter("/ubot/step", 1));
  $("speed").addEventListener("change", (e) => setParameter("/ubot/speed", Number(e.target.value)));

  let drag = null;
  canvas.addEventListener("mousedown", (e) => { drag = { x: e.offsetX, y: e.offsetY, moved: false }; canvas.focus(); });
  canvas.addEventListener("mousemove", (e) => {
    if (!drag) return;
    const dx = e.offsetX - drag.x, dy = e.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) {
      view.cx -= dx / view.scale;
      view.cy += dy / view.scale;
      drag.x = e.offsetX;
      drag.y = e.offsetY;
      dirty = true;
    }
  });
  canvas.addEventListener("mouseup", (e) => {
    if (drag && !drag.moved) {
      const x = wx(e.offsetX), y = wy(e.offsetY);
      select(replay ? scene.robotAt(x, y, Math.max(0.5, 12 / view.scale)) : objectAt(x, y));
    }
    drag = null;
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const x = wx(e.offsetX), y = wy(e.offsetY);
    view.scale *= Math.exp(-e.deltaY * 0.0015);
    view.cx = x - (e.offsetX - canvas.width / 2) / view.scale;
    view.cy = y + (e.offsetY - canvas.height / 2) / view.scale;
    dirty = true;
  }, { passive: false });
  window.addEventListener("resize", resize);

  // What the page shows, for its tests (tests/live/page_test.mjs) and the curious.
  window.ubotLive = {
    state: () => ({
      connected, frames, selected, commandsSent, lastCommand, lastStatus,
      drives: $("drives").textContent,
      world: world ? { name: world.name, objects: world.objects.length } : null,
      step: frame ? frame.step : null,
      paused: frame ? frame.paused : null,
      detail: frame && frame.detail.find((d) => d.id === selected) || null,
      scene: scene.state(),
      replay,
      sensorViews: [...sensorViews.values()].map((v) => ({
        id: v.canvas.id, topic: v.topic, messages: v.messages, drawn: v.drawn })),
    }),
    // The topics the page subscribes to.
    subscribed: () => [...subscriptions.values()].sort(),
    toScreen: (x, y) => {
      const r = canvas.getBoundingClientRect();
      return { x: r.left + sx(x), y: r.top + sy(y) };
    },
    // A recorded robot's latest odometry (replay), by namespace.
    odom: (ns) => (replay ? scene.odom(ns) : null),
    pose: (id) => {
      const o = frame && frame.objects.find((x) => x.id === id);
      return o && o.pose ? o.pose : null;
    },
  };

  resize();
  connect();
  requestAnimationFrame(draw);
})();
