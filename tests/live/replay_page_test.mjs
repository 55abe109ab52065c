// The live page over `ubot play RECORDING`, in Debian's Chromium driven by playwright-core: it
// draws the recording's world (markers, scans, robots from odometry), selects a robot by a
// click and shows its odometry, scan plot and sensor views, pauses, and seeks with its bar.
// Screenshots go to OUTDIR. Prints what it saw as JSON for run_live_tests.py.
//
// usage: node replay_page_test.mjs URL OUTDIR
import { openPage, sleep } from "./browser.mjs";

const [url, outdir] = process.argv.slice(2);
const result = { errors: [], requests: [] };
const { browser, page, state, until } = await openPage(url, result);
try {
  const drawn = await until("the recording drawn", (s) => s.replay && s.scene.playback &&
    s.scene.drawnMarkers > 0 && s.scene.drawnBeams > 0 && s.scene.robots >= 2);
  result.drawn = drawn.scene;
  result.canvas = await page.evaluate(() => {
    const c = document.getElementById("world");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) painted++;
    return { width: c.width, height: c.height, painted };
  });
  result.seekVisible = await page.isVisible("#seek");
  await page.screenshot({ path: `${outdir}/replay_page.png` });

  // Pause with the page's button, then select the rover by clicking its recorded position.
  await page.click("#play");
  await until("paused", (s) => s.scene.playback.paused === true);
  const odom = await page.evaluate(() => window.ubotLive.odom("/rover"));
  const at = await page.evaluate(([x, y]) => window.ubotLive.toScreen(x, y), [odom.x, odom.y]);
  await page.mouse.click(at.x, at.y);
  const selected = await until("the rover's sensor views", (s) => s.selected === "/rover" &&
    s.sensorViews.length === 4 && s.sensorViews.every((v) => v.messages >= 1));
  result.selected = selected.selected;
  result.sensorViews = selected.sensorViews;
  result.panel = await page.evaluate(() => ({
    name: document.getElementById("sel-name").textContent,
    rows: [...document.querySelectorAll("#sel-state tr")].map((tr) => tr.cells[0].textContent),
    scanPlots: [...document.querySelectorAll("#sensors canvas[id^=scan-]")].map((c) => c.id),
  }));
  await page.screenshot({ path: `${outdir}/replay_page_selected.png` });

  // Seek with the bar (as a user drags it and lets go): the page shows the new time.
  await page.evaluate(() => {
    const seek = document.getElementById("seek");
    seek.value = "1";
    seek.dispatchEvent(new Event("change"));
  });
  const seeked = await until("the seek", (s) => Math.abs(s.scene.playback.t - 1) < 1e-9);
  result.seek = { t: seeked.scene.playback.t, paused: seeked.scene.playback.paused,
                  clock: await page.textContent("#clock") };
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
