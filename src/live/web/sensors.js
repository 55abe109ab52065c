// The live page's sensor views, in the side panel for the selected robot: camera images (rgb8
// colour, 16UC1 depth in mm), IMU traces (rates and specific force over the last samples) and a
// 3D view of lidar3d points (drag to turn it). They read the ROS 2 channels Foxglove reads,
// subscribed only while the robot is selected; live.js decodes each message through its
// channel's schema with Foxglove's reader (ros2_reader.js) and hands the view the message as
// Foxglove's panels see it. One registry, keyed by schema, says which view shows a channel.
"use strict";
window.ubotSensors = (() => {
    const xyz = (v) => [v.x, v.y, v.z];

  // ---- views ---------------------------------------------------------------------------------
  const SIDE = 260;

  function canvas(width, height) {
    return Object.assign(document.createElement("canvas"), { width, height });
  }

  // A camera image at its own resolution, shown at most SIDE px wide.
  function imageView() {
    const c = canvas(SIDE, Math.round(SIDE * 0.75));
    c.style.width = `${SIDE}px`;
    return {
      canvas: c, messages: 0,
      onMessage(m) {  // sensor_msgs/msg/Image
        if (m.width === 0 || m.height === 0) return;
        if (c.width !== m.width || c.height !== m.height) {
          c.width = m.width;
          c.height = m.height;
        }
        const g = c.getContext("2d");
        const out = g.createImageData(m.width, m.height);
        const px = out.data, d = m.data;
        const depth = m.encoding === "16UC1";
        let far = 1;
        if (depth) for (let i = 0; i + 1 < d.length; i += 2) far = Math.max(far, d[i] | (d[i + 1] << 8));
        for (let y = 0; y < m.height; y++) {
          for (let x = 0; x < m.width; x++) {
            const o = (y * m.width + x) * 4;
            if (depth) {  // near is bright, no data black
              const i = y * m.step + 2 * x, mm = d[i] | (d[i + 1] << 8);
              const v = mm === 0 ? 0 : 255 - Math.round((200 * mm) / far);
              px[o] = px[o + 1] = px[o + 2] = v;
            } else {
              const i = y * m.step + 3 * x;
              px[o] = d[i]; px[o + 1] = d[i + 1]; px[o + 2] = d[i + 2];
            }
            px[o + 3] = 255;
          }
        }
        g.putImageData(out, 0, 0);
        this.messages++;
      },
    };
  }

  // The last TRACE samples: angular rate about z and specific force along x and y.
  const TRACE = 200;
  const TRACES = [["ωz", "#d22", (s) => s.rate[2]], ["ax", "#27c", (s) => s.accel[0]],
    ["ay", "#2a5", (s) => s.accel[1]]];

  function imuView() {
    const c = canvas(SIDE, 120);
    const samples = [];
    return {
      canvas: c, messages: 0,
      onMessage(m) {  // sensor_msgs/msg/Imu
        samples.push({ rate: xyz(m.angular_velocity), accel: xyz(m.linear_acceleration) });
        if (samples.length > TRACE) samples.shift();
        this.messages++;
        const g = c.getContext("2d");
        g.fillStyle = "#fff";
        g.fillRect(0, 0, c.width, c.height);
        let span = 1e-6;
        for (const s of samples) for (const [, , get] of TRACES) span = Math.max(span, Math.abs(get(s)));
        const y = (v) => c.height / 2 - (v / span) * (c.height / 2 - 12);
        g.strokeStyle = "#ddd";
        g.beginPath(); g.moveTo(0, y(0)); g.lineTo(c.width, y(0)); g.stroke();
        TRACES.forEach(([name, color, get], k) => {
          g.strokeStyle = g.fillStyle = color;
          g.beginPath();
          samples.forEach((s, i) => {
            const x = (i / (TRACE - 1)) * c.width;
            if (i === 0) g.moveTo(x, y(get(s))); else g.lineTo(x, y(get(s)));
          });
          g.stroke();
          g.fillText(`${name} ${get(samples[samples.length - 1]).toFixed(2)}`, 4 + 80 * k, 10);
        });
        g.fillStyle = "#666";
        g.fillText(`±${span.toFixed(2)} (rad/s, m/s²)`, 4, c.height - 3);
      },
    };
  }

  // lidar3d returns in the sensor frame, seen from a point that turns about z (drag) and
  // tilts; coloured by height. At most MAX_POINTS are drawn.
  const MAX_POINTS = 20000;
  const HEIGHT_BANDS = 12;

  function pointsView() {
    const c = canvas(SIDE, SIDE);
    const eye = { yaw: -2.4, pitch: 0.5 };
    let last = null, drag = null;
    c.addEventListener("mousedown", (e) => { drag = { x: e.offsetX, y: e.offsetY }; });
    c.addEventListener("mouseup", () => { drag = null; });
    c.addEventListener("mouseleave", () => { drag = null; });
    c.addEventListener("mousemove", (e) => {
      if (!drag) return;
      eye.yaw += (e.offsetX - drag.x) * 0.01;
      eye.pitch = Math.max(-1.4, Math.min(1.4, eye.pitch + (e.offsetY - drag.y) * 0.01));
      drag = { x: e.offsetX, y: e.offsetY };
      if (last) draw(last);
    });
    function draw(m) {
      const g = c.getContext("2d");
      g.fillStyle = "#10141c";
      g.fillRect(0, 0, c.width, c.height);
      const fx = m.fields.x, fy = m.fields.y, fz = m.fields.z;
      if (!fx || !fy || !fz || m.count === 0) return 0;
      const d = new DataView(m.data.buffer, m.data.byteOffset, m.data.byteLength);
      const stride = Math.max(1, Math.ceil(m.count / MAX_POINTS));
      let reach = 1, zmin = Infinity, zmax = -Infinity;
      for (let i = 0; i < m.count; i += stride) {
        const o = i * m.pointStep;
        reach = Math.max(reach, Math.hypot(d.getFloat32(o + fx.offset, true), d.getFloat32(o + fy.offset, true)));
        const z = d.getFloat32(o + fz.offset, true);
        zmin = Math.min(zmin, z); zmax = Math.max(zmax, z);
      }
      const cy = Math.cos(eye.yaw), sy = Math.sin(eye.yaw), cp = Math.cos(eye.pitch), sp = Math.sin(eye.pitch);
      const k = (c.width / 2 - 8) / reach;
      // Points in HEIGHT_BANDS colours, one fill style per band: setting a style per point cost
      // the page more than the rest of the view (and made it late for the keys).
      const bands = Array.from({ length: HEIGHT_BANDS }, () => []);
      for (let i = 0; i < m.count; i += stride) {
        const o = i * m.pointStep;
        const x = d.getFloat32(o + fx.offset, true), y = d.getFloat32(o + fy.offset, true);
        const z = d.getFloat32(o + fz.offset, true);
        const u = x * sy - y * cy;                  // right on screen
        const w = (x * cy + y * sy) * sp + z * cp;  // up on screen
        const t = zmax > zmin ? (z - zmin) / (zmax - zmin) : 0.5;
        bands[Math.min(HEIGHT_BANDS - 1, Math.floor(t * HEIGHT_BANDS))].push(c.width / 2 + u * k, c.height / 2 - w * k);
      }
      let drawn = 0;
      bands.forEach((xy, b) => {
        g.fillStyle = `hsl(${Math.round(240 - (240 * b) / (HEIGHT_BANDS - 1))}, 90%, 60%)`;
        for (let j = 0; j < xy.length; j += 2) g.fillRect(xy[j], xy[j + 1], 1.5, 1.5);
        drawn += xy.length / 2;
      });
      g.fillStyle = "#ccc";
      g.fillText(`${m.count} points, drag to turn`, 4, c.height - 4);
      return drawn;
    }
    return {
      canvas: c, messages: 0, drawn: 0,
      onMessage(m) {  // sensor_msgs/msg/PointCloud2
        last = { count: m.height * m.width, pointStep: m.point_step, data: m.data,
          fields: Object.fromEntries(m.fields.map((f) => [f.name, f])) };
        this.drawn = draw(last);
        this.messages++;
      },
    };
  }

  // The views, by the schema of the channel they show.
  const VIEWS = {
    "sensor_msgs/msg/Image": imageView,
    "sensor_msgs/msg/Imu": imuView,
    "sensor_msgs/msg/PointCloud2": pointsView,
  };
  // The topic suffix of each sensor type with a view (ros2.md's naming).
  const SUFFIX = { rgb_camera: "image_raw", depth_camera: "image_raw", imu: "imu", lidar3d: "points" };

  return {
    // The topic a sensor publishes on (ros2.md's naming: a camera always under its own name, a
    // robot's second sensor of a kind too, its first at <ns>/<suffix>), among `topics`
    // (advertised); null for a sensor type without a view here or a topic not advertised.
    topicOf(ns, sensor, topics) {
      const suffix = SUFFIX[sensor.type];
      if (!suffix) return null;
      const own = `${ns}/${sensor.name}/${suffix}`;
      if (topics.has(own)) return own;
      const first = `${ns}/${suffix}`;
      return !sensor.type.endsWith("_camera") && topics.has(first) ? first : null;
    },
    // Whether a channel of this schema has a view, and a new view of it.
    shows: (schemaName) => schemaName in VIEWS,
    view: (schemaName) => (schemaName in VIEWS ? VIEWS[schemaName]() : null),
  };
})();
