// What the page tests share: Debian's Chromium through playwright-core, a page that records
// its errors and every URL it asks for, and a wait on window.ubotLive.state().
import { chromium } from "playwright-core";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Opens URL; `result` collects the page's errors and requests for run_live_tests.py.
export async function openPage(url, result) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox"],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  page.on("pageerror", (e) => result.errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") result.errors.push(m.text()); });
  page.on("request", (r) => result.requests.push(r.url()));
  await page.goto(url);
  const state = () => page.evaluate(() => window.ubotLive.state());
  // The page's state once `test` holds of it; throws after `ms`, naming `what` and the state.
  const until = async (what, test, ms = 10000) => {
    const end = Date.now() + ms;
    for (;;) {
      const s = await state();
      if (test(s)) return s;
      if (Date.now() > end) throw new Error(`page: timed out waiting for ${what}: ${JSON.stringify(s)}`);
      await sleep(50);
    }
  };
  return { browser, page, state, until };
}
