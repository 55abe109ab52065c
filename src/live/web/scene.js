// The world as the page draws it, in a live run and in a replay alike: what the marker channels
// hold, as Foxglove's 3D panel would show it, seen from above: the world's markers
// (/ubot/markers/static, /ubot/markers with a live run's lidar beams, /ubot/trajectories, every
// other MarkerArray such as contacts) and the grid map (nav_msgs/OccupancyGrid); in a replay
// also every LaserScan placed through /tf and /tf_static, and the robots from their odometry
// (click one to see its pose, velocity, scans and sensor views). live.js owns the connection
// and the view, and decodes every message through its channel's schema with Foxglove's reader
// (ros2_reader.js); this file keeps what the channels said and draws it, one decoder per schema.
"use strict";
window.ubotScene = (() => {
  const MAX_BEAMS = 4000;  // beams drawn per frame, over every scan (as a live run's markers)

  // ---- the messages, as Foxglove's reader gives them, in the shapes drawn here ------------------
  const xyz = (v) => [v.x, v.y, v.z];
  const quat = (q) => [q.x, q.y, q.z, q.w];
  const rgba = (c) => [c.r, c.g, c.b, c.a];
  const yawOf = (q) => Math.atan2(2 * (q[3] * q[2] + q[0] * q[1]), 1 - 2 * (q[1] * q[1] + q[2] * q[2]));
  const header = (h) => ({ sec: h.stamp.sec, nanosec: h.stamp.nanosec, frameId: h.frame_id });

  // A marker's points are in its own frame, placed by its pose: here they are put in the map
  // frame once, as they arrive (about z only: the page looks from above).
  const marker = (m) => {
    const p0 = xyz(m.pose.position), q = quat(m.pose.orientation), yaw = yawOf(q);
    const c = Math.cos(yaw), s = Math.sin(yaw);
    const points = new Float64Array(3 * m.points.length);
    m.points.forEach((p, i) => points.set([p0[0] + c * p.x - s * p.y, p0[1] + s * p.x + c * p.y, p0[2] + p.z], 3 * i));
    return { ns: m.ns, id: m.id, type: m.type, action: m.action,
      pose: { p: p0, q }, scale: xyz(m.scale),
      color: rgba(m.color), points, colors: m.colors.map(rgba), text: m.text };
  };
  const scan = (m) => ({ header: header(m.header), angleMin: m.angle_min, angleMax: m.angle_max,
    increment: m.angle_increment, rangeMin: m.range_min, rangeMax: m.range_max, ranges: m.ranges });
  const transforms = (m) => m.transforms.map((t) => ({ parent: t.header.frame_id, child: t.child_frame_id,
    x: t.transform.translation.x, y: t.transform.translation.y, yaw: yawOf(quat(t.transform.rotation)) }));
  const odometry = (m) => {
    const q = quat(m.pose.pose.orientation), v = m.twist.twist;
    return { header: header(m.header), child: m.child_frame_id, x: m.pose.pose.position.x,
      y: m.pose.pose.position.y, yaw: yawOf(q), vx: v.linear.x, vy: v.linear.y, wz: v.angular.z };
  };
  const occupancy = (m) => ({ resolution: m.info.resolution, width: m.info.width, height: m.info.height,
    x: m.info.origin.position.x, y: m.info.origin.position.y, data: m.data });

  // ---- what the channels said ---------------------------------------------------------------
  const DECODERS = {
    "visualization_msgs/msg/MarkerArray": "markers", "sensor_msgs/msg/LaserScan": "scan",
    "tf2_msgs/msg/TFMessage": "tf", "nav_msgs/msg/Odometry": "odom", "nav_msgs/msg/OccupancyGrid": "grid",
  };
  // What a live run's page reads: its /ubot/markers carry the beams, paced as the page draws,
  // so it does not subscribe to every robot's scan, transform and odometry at every step.
  const LIVE = new Set(["markers", "grid"]);

  function create() {
    const markers = new Map();  // topic -> markers, in drawing order
    const scans = new Map();    // topic -> scan
    const frames = new Map();   // child frame -> {parent, x, y, yaw}
    const odom = new Map();     // namespace -> latest odometry
    let grid = null;            // {raster canvas, x, y, w, h}
    let playback = null;        // /ubot/playback
    let messages = 0, drawnMarkers = 0, drawnBeams = 0;

    function onMarkers(topic, list) {
      let kept = markers.get(topic) || [];
      for (const m of list) {
        if (m.action === 3) kept = [];  // DELETEALL
        else if (m.action === 2) kept = kept.filter((k) => k.ns !== m.ns || k.id !== m.id);
        else {
          kept = kept.filter((k) => k.ns !== m.ns || k.id !== m.id);
          kept.push(m);
        }
      }
      // Low first: the world's ground layers (fields of view, trails, smoke, fog) under objects.
      kept.sort((a, b) => height(a) - height(b));
      markers.set(topic, kept);
    }
    const height = (m) => (m.points.length ? m.points[2] : m.pose.p[2]);

    function makeGrid(g) {
      const off = Object.assign(document.createElement("canvas"), { width: g.width, height: g.height });
      const c = off.getContext("2d");
      const image = c.createImageData(g.width, g.height);
      for (let row = 0; row < g.height; row++) {
        for (let col = 0; col < g.width; col++) {
          const v = (g.data[row * g.width + col] << 24) >> 24;  // int8
          const grey = v < 0 ? 205 : Math.round(255 - 2.55 * Math.min(100, v));
          // Row 0 is at the origin (bottom): the canvas's row 0 is its top.
          image.data.set([grey, grey, grey, 255], ((g.height - 1 - row) * g.width + col) * 4);
        }
      }
      c.putImageData(image, 0, 0);
      return { canvas: off, x: g.x, y: g.y, w: g.width * g.resolution, h: g.height * g.resolution };
    }

    // A frame's pose in `map` (x, y, yaw), through the transforms received so far.
    function inMap(frame) {
      let x = 0, y = 0, yaw = 0;
      for (let depth = 0; frame !== "map" && depth < 32; depth++) {
        const t = frames.get(frame.replace(/^\//, ""));
        if (!t) return null;
        const c = Math.cos(t.yaw), s = Math.sin(t.yaw);
        [x, y] = [t.x + c * x - s * y, t.y + s * x + c * y];
        yaw += t.yaw;
        frame = t.parent.replace(/^\//, "");
      }
      return frame === "map" ? { x, y, yaw } : null;
    }

    function onMessage(topic, schemaName, m) {
      messages++;
      switch (DECODERS[schemaName]) {
        case "markers": onMarkers(topic, m.markers.map(marker)); break;
        case "scan": scans.set(topic, scan(m)); break;
        case "tf": for (const t of transforms(m)) frames.set(t.child.replace(/^\//, ""), t); break;
        case "odom": odom.set(topic.replace(/\/odom$/, "") || "/", odometry(m)); break;
        case "grid": grid = makeGrid(occupancy(m)); break;
      }
    }

    // ---- drawing ----------------------------------------------------------------------------
    const css = (c) => `rgba(${Math.round(255 * c[0])},${Math.round(255 * c[1])},${Math.round(255 * c[2])},${c[3]})`;

    function drawMarker(g, v, m) {
      const [px, py] = m.pose.p, yaw = yawOf(m.pose.q), pts = m.points;
      g.fillStyle = g.strokeStyle = css(m.color);
      g.lineWidth = Math.max(1, m.scale[0] * v.scale);
      switch (m.type) {
        case 1: {  // CUBE
          g.save();
          g.translate(v.sx(px), v.sy(py));
          g.rotate(-yaw);
          g.fillRect((-m.scale[0] / 2) * v.scale, (-m.scale[1] / 2) * v.scale, m.scale[0] * v.scale, m.scale[1] * v.scale);
          g.restore();
          break;
        }
        case 2: case 3: {  // SPHERE, CYLINDER
          g.beginPath();
          g.ellipse(v.sx(px), v.sy(py), Math.max(1, (m.scale[0] / 2) * v.scale), Math.max(1, (m.scale[1] / 2) * v.scale), -yaw, 0, 2 * Math.PI);
          g.fill();
          break;
        }
        case 0: {  // ARROW from points[0] to points[1]
          if (pts.length < 6) break;
          const [x0, y0, x1, y1] = [pts[0], pts[1], pts[3], pts[4]];
          const a = Math.atan2(y1 - y0, x1 - x0), head = Math.max(4, m.scale[2] * v.scale);
          g.lineWidth = 1.5;
          g.beginPath();
          g.moveTo(v.sx(x0), v.sy(y0));
          g.lineTo(v.sx(x1), v.sy(y1));
          g.stroke();
          g.beginPath();
          g.moveTo(v.sx(x1), v.sy(y1));
          g.lineTo(v.sx(x1) - head * Math.cos(a - 0.4), v.sy(y1) + head * Math.sin(a - 0.4));
          g.lineTo(v.sx(x1) - head * Math.cos(a + 0.4), v.sy(y1) + head * Math.sin(a + 0.4));
          g.closePath();
          g.fill();
          break;
        }
        case 4: {  // LINE_STRIP
          g.beginPath();
          for (let i = 0; i + 2 < pts.length; i += 3) {
            if (i === 0) g.moveTo(v.sx(pts[i]), v.sy(pts[i + 1]));
            else g.lineTo(v.sx(pts[i]), v.sy(pts[i + 1]));
          }
          g.stroke();
          break;
        }
        case 5: {  // LINE_LIST
          g.beginPath();
          for (let i = 0; i + 5 < pts.length; i += 6) {
            g.moveTo(v.sx(pts[i]), v.sy(pts[i + 1]));
            g.lineTo(v.sx(pts[i + 3]), v.sy(pts[i + 4]));
          }
          g.stroke();
          break;
        }
        case 6: case 7: case 8: {  // CUBE_LIST, SPHERE_LIST, POINTS
          if (BEAMS.has(m.ns)) drawFan(g, v, m);
          if (m.ns === "beam_misses") break;  // a fan's faint rays, without dots at their ends
          const w = Math.max(1, m.scale[0] * v.scale), h = Math.max(1, (m.scale[1] || m.scale[0]) * v.scale);
          for (let i = 0, k = 0; i + 2 < pts.length; i += 3, k++) {
            if (m.colors[k]) g.fillStyle = css(m.colors[k]);
            g.fillRect(v.sx(pts[i]) - w / 2, v.sy(pts[i + 1]) - h / 2, w, h);
          }
          break;
        }
        case 9: {  // TEXT_VIEW_FACING
          g.font = `${Math.max(10, m.scale[2] * v.scale)}px sans-serif`;
          g.fillText(m.text, v.sx(px), v.sy(py));
          break;
        }
        case 11: {  // TRIANGLE_LIST
          g.beginPath();
          for (let i = 0; i + 8 < pts.length; i += 9) {
            g.moveTo(v.sx(pts[i]), v.sy(pts[i + 1]));
            g.lineTo(v.sx(pts[i + 3]), v.sy(pts[i + 4]));
            g.lineTo(v.sx(pts[i + 6]), v.sy(pts[i + 7]));
            g.closePath();
          }
          g.fill();
          break;
        }
        default:
          return 0;
      }
      return 1;
    }

    // A live run's lidar (scene markers "beams" and "beam_misses": each beam's end, placed by the
    // marker's pose, the sensor): its rays, from the sensor to each end, as hairlines.
    const BEAMS = new Set(["beams", "beam_misses"]);
    function drawFan(g, v, m) {
      const [ox, oy] = [v.sx(m.pose.p[0]), v.sy(m.pose.p[1])], pts = m.points;
      g.lineWidth = 0.6;
      g.beginPath();
      for (let i = 0; i + 2 < pts.length; i += 3) {
        g.moveTo(ox, oy);
        g.lineTo(v.sx(pts[i]), v.sy(pts[i + 1]));
      }
      g.stroke();
    }

    // Every scan's beams, from its sensor's pose in `map` to its hits (no hit: to range_max,
    // fainter), thinned by one stride over all scans to MAX_BEAMS.
    function drawScans(g, v) {
      let total = 0;
      for (const s of scans.values()) total += s.ranges.length;
      const stride = Math.max(1, Math.ceil(total / MAX_BEAMS));
      let drawn = 0;
      g.lineWidth = 0.6;
      for (const s of scans.values()) {
        const at = inMap(s.header.frameId);
        if (!at) continue;
        const hits = [], misses = [];
        for (let i = 0; i < s.ranges.length; i += stride) {
          const r = s.ranges[i], a = at.yaw + s.angleMin + i * s.increment;
          const hit = Number.isFinite(r) && r >= s.rangeMin && r < s.rangeMax;
          const d = hit ? r : s.rangeMax;
          (hit ? hits : misses).push(at.x + d * Math.cos(a), at.y + d * Math.sin(a));
        }
        for (const [list, style] of [[misses, "rgba(230,120,0,0.12)"], [hits, "rgba(230,120,0,0.45)"]]) {
          g.strokeStyle = style;
          g.beginPath();
          for (let i = 0; i < list.length; i += 2) {
            g.moveTo(v.sx(at.x), v.sy(at.y));
            g.lineTo(v.sx(list[i]), v.sy(list[i + 1]));
          }
          g.stroke();
        }
        g.fillStyle = "#e67800";
        for (let i = 0; i < hits.length; i += 2) g.fillRect(v.sx(hits[i]) - 1, v.sy(hits[i + 1]) - 1, 2, 2);
        drawn += (hits.length + misses.length) / 2;
      }
      return drawn;
    }

    const ORDER = ["/ubot/markers/static", "/ubot/trajectories", "/ubot/markers"];

    // v: {sx, sy, scale} (world to screen); selected: a robot namespace or null.
    function draw(g, v, selected) {
      if (grid) {
        g.imageSmoothingEnabled = false;
        g.drawImage(grid.canvas, v.sx(grid.x), v.sy(grid.y + grid.h), grid.w * v.scale, grid.h * v.scale);
      }
      drawnMarkers = 0;
      const topics = [...ORDER.filter((t) => markers.has(t)), ...[...markers.keys()].filter((t) => !ORDER.includes(t))];
      drawnBeams = 0;
      for (const t of topics) {
        if (t === "/ubot/markers") drawnBeams += drawScans(g, v);
        for (const m of markers.get(t)) {
          drawnMarkers += drawMarker(g, v, m);
          if (BEAMS.has(m.ns)) drawnBeams += m.points.length / 3;
        }
      }
      if (!markers.has("/ubot/markers")) drawnBeams += drawScans(g, v);
      const robot = selected !== null && odom.get(selected);
      if (robot) {
        g.beginPath();
        g.arc(v.sx(robot.x), v.sy(robot.y), 12, 0, 2 * Math.PI);
        g.lineWidth = 3;
        g.strokeStyle = "#1e90ff";
        g.stroke();
      }
    }

    // The world's extent: the static markers' and the grid's, else the robots'.
    function bounds() {
      let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
      const add = (x, y) => { lo = [Math.min(lo[0], x), Math.min(lo[1], y)]; hi = [Math.max(hi[0], x), Math.max(hi[1], y)]; };
      for (const m of markers.get("/ubot/markers/static") || []) {
        if (m.points.length) for (let i = 0; i < m.points.length; i += 3) add(m.points[i], m.points[i + 1]);
        else { add(m.pose.p[0] - m.scale[0] / 2, m.pose.p[1] - m.scale[1] / 2); add(m.pose.p[0] + m.scale[0] / 2, m.pose.p[1] + m.scale[1] / 2); }
      }
      if (grid) { add(grid.x, grid.y); add(grid.x + grid.w, grid.y + grid.h); }
      for (const o of odom.values()) { add(o.x - 1, o.y - 1); add(o.x + 1, o.y + 1); }
      return Number.isFinite(lo[0]) ? [lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1]] : null;
    }

    // The robot (namespace) nearest (x, y) within `reach` m, or null.
    function robotAt(x, y, reach) {
      let best = null, bestD = reach;
      for (const [ns, o] of odom) {
        const d = Math.hypot(o.x - x, o.y - y);
        if (d <= bestD) { best = ns; bestD = d; }
      }
      return best;
    }

    function clear() {
      for (const m of [markers, scans, frames, odom]) m.clear();
      grid = null;
    }

    return {
      // Whether the page reads a channel of this schema: in a replay every one drawn, live the
      // markers and grid maps.
      wants: (schemaName, live) => schemaName in DECODERS && (!live || LIVE.has(DECODERS[schemaName])),
      clear,
      onMessage, draw, bounds, robotAt,
      setPlayback: (p) => { playback = p; },
      playback: () => playback,
      odom: (ns) => odom.get(ns) || null,
      scan: (topic) => scans.get(topic) || null,
      state: () => ({ messages, drawnMarkers, drawnBeams, robots: odom.size, scans: scans.size,
        markerTopics: [...markers.keys()], grid: grid !== null, playback }),
    };
  }

  return { create };
})();
