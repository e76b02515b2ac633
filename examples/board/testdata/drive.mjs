// drive.mjs drives Debian's Chromium through playwright-core for the
// browser test (browser_test.go): it opens the host page, waits for the
// view to show the tool's result, moves a ticket by clicking in the view,
// has the view try an origin its CSP allows and one it does not, takes a
// screenshot, and prints what it saw as JSON. Its one argument is a JSON
// object: {playwright, chromium, url, resolverRules, screenshot}.
const cfg = JSON.parse(process.argv[2]);
const { chromium } = await import(cfg.playwright);

const browser = await chromium.launch({
  executablePath: cfg.chromium,
  headless: true,
  // No network but loopback: the origins the view may reach are mapped to
  // the test's server; Chromium's own traffic is off.
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--ignore-certificate-errors",
    `--host-resolver-rules=${cfg.resolverRules}`,
  ],
});
const out = { console: [] };
try {
  const page = await browser.newPage({ viewport: { width: 820, height: 560 } });
  page.on("console", (m) => out.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => out.console.push(`pageerror: ${e}`));
  await page.goto(cfg.url);
  await page.waitForFunction(() => window.__host?.ready || window.__host?.errors.length > 0, null, { timeout: 30000 });
  out.host = await page.evaluate(() => window.__host);
  if (out.host.errors.length === 0) {
    const view = page.frameLocator("#frame iframe").frameLocator("iframe");
    out.before = await view.locator("#board").innerText();
    await view.getByTitle("Move T-2 to doing").click();
    await view.locator("#status").filter({ hasText: "moved" }).waitFor({ timeout: 15000 });
    out.status = await view.locator("#status").innerText();
    out.after = await view.locator("#board").innerText();
    out.calls = await page.evaluate(() => window.__host.calls);

    // What the view's CSP allows, and what it does not: the view tries
    // both, and shows what happened.
    const frame = page.frames().find((f) => f.parentFrame() && f.parentFrame().parentFrame() === page.mainFrame());
    out.probe = await frame.evaluate(async (targets) => {
      const violations = [];
      document.addEventListener("securitypolicyviolation", (e) => violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
      const fetched = {};
      for (const url of targets) {
        fetched[url] = await fetch(url).then((r) => r.text(), (e) => `failed: ${e.message}`);
      }
      await new Promise((r) => setTimeout(r, 200));
      const p = document.createElement("p");
      p.id = "probe";
      p.textContent = Object.entries(fetched).map(([u, r]) => `${u} → ${r}`).join("  ·  ") +
        violations.map((v) => `  ·  CSP ${v.directive} blocked ${v.blocked}`).join("");
      document.body.append(p);
      return { fetched, violations };
    }, cfg.probe);
  }
  await page.screenshot({ path: cfg.screenshot, fullPage: true });
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
