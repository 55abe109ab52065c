// The live page in Debian's Chromium, driven by playwright-core: it loads with no network but
// the server's, draws the world, lets a user select a robot by clicking it and drive it with
// IR-SIM's keys, and pause / step the run. Screenshots go to OUTDIR (the test's artefacts).
// Prints what it saw as JSON for run_live_tests.py; throws (exit 1) when the page fails.
//
// usage: node page_test.mjs URL OUTDIR
import { openPage, sleep } from "./browser.mjs";

const [url, outdir] = process.argv.slice(2);
const result = { errors: [], requests: [] };
const { browser, page, state, until } = await openPage(url, result);
try {
  await until("frames", (s) => s.connected && s.world && s.frames >= 5);
  // The world comes from the marker channels, the lidars' beams with it, as Foxglove's 3D panel
  // reads them; the page's JSON channels only say which object is which and where.
  result.drawn = (await until("the world's markers", (s) => s.scene.drawnMarkers > 0 &&
    s.scene.drawnBeams > 0 && s.scene.markerTopics.includes("/ubot/markers/static"))).scene;
  result.subscribed = await page.evaluate(() => window.ubotLive.subscribed());
  // What the canvas shows: pixels that are not the white background, and the rover's colour.
  result.canvas = await page.evaluate(() => {
    const c = document.getElementById("world");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) painted++;
    return { width: c.width, height: c.height, painted };
  });
  await page.screenshot({ path: `${outdir}/live_page.png` });

  // Every key with nothing selected (issue 51: 'w' threw a TypeError and drove nothing): the
  // drive keys drive the first robot, as IR-SIM's keyboard control does, the page says which,
  // and no key raises anything (the run's errors are collected throughout). n (one step, then
  // pause) and p (play) go last, so the run is playing again after them.
  result.drivesUnselected = (await state()).drives;
  const others = [..."abcdefghijklmoqrstuvwxyz0123456789", " ", "ArrowUp", "ArrowDown",
    "ArrowLeft", "ArrowRight", "Escape", "Tab", "Enter", "Backspace", "Shift", "Alt", "F1"];
  for (const key of others) await page.keyboard.press(key);
  // Tab moved the focus to a control, whose own keys the page leaves alone: back to the page.
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.down("w");
  await sleep(300);
  await page.keyboard.up("w");
  const unselected = await state();
  result.commandsUnselected = unselected.commandsSent;
  result.lastCommandUnselected = unselected.lastCommand;
  result.selectedAfterKeys = unselected.selected;
  await page.keyboard.press("n");
  await until("paused after one step", (s) => s.paused === true);
  await page.keyboard.press("p");
  await until("playing again", (s) => s.paused === false);
  await page.setViewportSize({ width: 700, height: 500 });  // and a resize
  await sleep(200);
  await page.setViewportSize({ width: 1100, height: 700 });  // browser.mjs's
  // The page sizes its canvas in its resize handler, which runs after the viewport changes; a
  // click placed with the old canvas size lands beside the rover (seen on a loaded CI machine).
  await page.waitForFunction(() => {
    const c = document.getElementById("world");
    const r = c.getBoundingClientRect();
    return c.width === Math.max(100, Math.round(r.width)) && c.height === Math.max(100, Math.round(r.height));
  });

  // Select the rover (object 0) by clicking where the page draws it. The rover drives while the
  // test reads its pose and clicks; a click that misses the moving rover is tried again from its
  // new pose, at most three times (the count is reported).
  result.selectClicks = 0;
  let selected = null;
  while (!selected) {
    const pose = await page.evaluate(() => window.ubotLive.pose(0));
    const at = await page.evaluate(([x, y]) => window.ubotLive.toScreen(x, y), pose);
    await page.mouse.click(at.x, at.y);
    result.selectClicks++;
    const chosen = (s) => s.selected === 0 && s.detail;
    selected = await until("the rover's detail", chosen, result.selectClicks < 3 ? 2000 : 10000)
      .catch((e) => { if (result.selectClicks >= 3) throw e; return null; });
  }
  result.detail = selected.detail;
  // Its sensor views: IMU traces, 3D lidar points, colour and depth images, each fed from its
  // ROS 2 channel; what each canvas shows (pixels that are not its background).
  const views = await until("the rover's sensor views", (s) => s.sensorViews.length === 4 &&
    s.sensorViews.every((v) => v.messages >= 2));
  result.sensorViews = views.sensorViews;
  // A camera sees black where nothing is in view: the rover faces open floor on part of its
  // loop, so the views are read until each shows something (its return leg passes both
  // obstacles), for up to 20 s.
  const readPixels = () => page.evaluate((ids) => Object.fromEntries(ids.map((id) => {
    const c = document.getElementById(id);
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return [id, { width: c.width, height: c.height, colours: colours.size }];
  })), views.sensorViews.map((v) => v.id));
  const shows = (px) => Object.entries(px).every(([id, p]) => p.colours >= (id.includes("_camera") ? 2 : 4));
  for (const start = Date.now(); ; await sleep(100)) {
    result.sensorPixels = await readPixels();
    if (shows(result.sensorPixels) || Date.now() - start > 20000) break;
  }
  await page.evaluate(() => document.querySelector("[id^=view-lidar3d]").scrollIntoView());
  await page.screenshot({ path: `${outdir}/live_page_sensors.png` });

  // Hold 'd' (turn right on the spot): IR-SIM's keys send the robot's full turn rate, no speed.
  // The robot gets there within its acceleration limits; the test looks for it for up to 3 s
  // (a loaded CI machine, with the sensor views drawing, can take longer than a fixed sleep).
  const reaches = (v) => (s) => s.detail && s.detail.velocity[0] === v[0] && s.detail.velocity[1] === v[1];
  await page.keyboard.down("d");
  await sleep(700);
  result.turning = (await until("the turn", reaches([0, -1]), 3000).catch(() => state())).detail;
  result.turnCommand = (await state()).lastCommand;
  await page.keyboard.up("d");
  // 'w': full speed ahead, no turn.
  await page.keyboard.down("w");
  await sleep(700);
  result.forward = (await until("full speed", reaches([1.0, 0]), 3000).catch(() => state())).detail;
  await page.keyboard.up("w");
  // Space: stop. The stop holds for the robot's command_timeout (0.5 s), then its behaviour
  // takes over again. A round trip from here to the page can take longer than that on a loaded
  // CI machine, so the page itself watches every 10 ms, and space is pressed again every 200 ms
  // (as a user holding the robot would) until the page has shown the stopped robot.
  const stopSeen = page.waitForFunction(() => {
    const s = window.ubotLive.state();
    return s.detail && s.detail.velocity[0] === 0 && s.detail.velocity[1] === 0 && s.detail;
  }, null, { polling: 10, timeout: 10000 });
  let stopDone = false;
  stopSeen.finally(() => { stopDone = true; }).catch(() => {});
  for (result.stopPresses = 0; !stopDone && result.stopPresses < 50; result.stopPresses++) {
    await page.keyboard.press(" ");
    await sleep(200);
  }
  result.stopped = await (await stopSeen).jsonValue();
  result.commandsSent = (await state()).commandsSent;
  await page.screenshot({ path: `${outdir}/live_page_driving.png` });

  // Pause, then one step.
  await page.click("#play");
  const paused = await until("pause", (s) => s.paused === true);
  await sleep(300);
  const restStep = (await state()).step;
  await page.click("#step");
  const stepped = await until("one step", (s) => s.step !== restStep);
  await sleep(300);
  result.pause = { pausedAt: paused.step, restStep, afterStep: stepped.step, settled: (await state()).step };
  await page.click("#play");
  await until("playing again", (s) => s.paused === false);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
