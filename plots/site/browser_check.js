// Opens every page of a built results site in Debian's chromium (headless,
// driven by the pinned playwright-core) from file:// with every non-file
// request aborted, and reports what it saw as JSON for site_test.py to
// judge: console errors, failed and blocked requests, the SVG marks each
// chart drew, the chooser's answer for each requirement combination, and
// a screenshot per page.
//
// usage: node browser_check.js NPM_DIR SITE_DIR CASES_JSON SHOTS_DIR OUT_JSON
//   CASES_JSON: [{"name", "reqs": {removal, add, weights, replicas,
//   domains, string}, "n", "mem", "ns"}] for chooser.html.
'use strict';
const path = require('path');
const fs = require('fs');

const [npmDir, siteDir, casesPath, shotsDir, outPath] = process.argv.slice(2);
const { chromium } = require(path.join(npmDir, 'node_modules', 'playwright-core'));
const CHROMIUM = process.env.CHBENCH_CHROMIUM || '/usr/bin/chromium';

async function main() {
  const cases = JSON.parse(fs.readFileSync(casesPath, 'utf8'));
  fs.mkdirSync(shotsDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
  const out = { pages: {}, chooser: [] };
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const pages = fs.readdirSync(siteDir).filter((f) => f.endsWith('.html')).sort();
    for (const name of pages) {
      const page = await context.newPage();
      const rec = { console_errors: [], page_errors: [], failed: [], blocked: [], requests: 0, charts: {} };
      page.on('console', (m) => { if (m.type() === 'error') rec.console_errors.push(m.text()); });
      page.on('pageerror', (e) => rec.page_errors.push(String(e)));
      page.on('requestfailed', (r) => {
        if (!r.url().startsWith('file:')) return;  // the blocked ones are counted below
        rec.failed.push(r.url() + ' ' + (r.failure() || {}).errorText);
      });
      await page.route('**/*', (route) => {
        const url = route.request().url();
        rec.requests += 1;
        if (url.startsWith('file:')) return route.continue();
        rec.blocked.push(url);
        return route.abort('blockedbyclient');
      });
      const url = 'file://' + path.resolve(siteDir, name);
      await page.goto(url, { waitUntil: 'load' });
      // every chart with points has drawn (data-drawn set by site.js)
      await page.waitForFunction(() => {
        const want = (window.CHBENCH_PAGE ? window.CHBENCH_PAGE.charts : []).filter((c) => c.points.length);
        return want.every((c) => document.getElementById(c.id).hasAttribute('data-drawn'));
      }, null, { timeout: 20000 }).catch((e) => rec.page_errors.push('charts not drawn: ' + e.message));
      rec.charts = await page.evaluate(() => {
        const res = {};
        document.querySelectorAll('section.chart').forEach((s) => {
          const svg = s.querySelector('.vis svg');
          res[s.id] = {
            svg: !!svg,
            points: svg ? svg.querySelectorAll('g.mark-symbol.role-mark.points_marks > path, g.mark-symbol.role-mark.points > path').length : 0,
            rules: svg ? svg.querySelectorAll('g.mark-rule.role-mark > line').length : 0,
            table_rows: s.querySelectorAll('details.datatable tbody tr').length,
          };
        });
        return res;
      });
      if (name === 'lookup.html' && rec.charts.lookup_prehashed) {
        // toggling a series off removes its marks; the log switch redraws
        rec.toggle = await page.evaluate(async () => {
          const s = document.getElementById('lookup_prehashed');
          const cb = s.querySelector('input[data-series]');
          const series = cb.getAttribute('data-series');
          const pts = window.CHBENCH_PAGE.charts.find((c) => c.id === 'lookup_prehashed').points;
          cb.click();
          const t0 = Date.now();
          while (!s.hasAttribute('data-drawn') && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
          const count = () => s.querySelectorAll('.vis svg g.mark-symbol.role-mark.points_marks > path, .vis svg g.mark-symbol.role-mark.points > path').length;
          const after = count();
          cb.click();
          const t1 = Date.now();
          while (!s.hasAttribute('data-drawn') && Date.now() - t1 < 5000) await new Promise((r) => setTimeout(r, 20));
          return { series, removed: pts.filter((p) => p.series === series).length, total: pts.length, after, restored: count() };
        });
      }
      if (name === 'chooser.html') {
        await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
        for (const c of cases) {
          const got = await page.evaluate((c) => {
            const f = document.getElementById('chooser');
            f.elements.string.checked = !!c.reqs.string;
            f.elements.string.dispatchEvent(new Event('change', { bubbles: true }));
            ['removal', 'add', 'weights', 'replicas', 'domains'].forEach((r) => { f.elements[r].checked = !!c.reqs[r]; });
            const sel = document.getElementById('req-n');
            const have = Array.from(sel.options).map((o) => o.value);
            sel.value = c.n;
            f.elements.mem.value = c.mem === null ? '' : String(c.mem);
            f.elements.ns.value = c.ns === null ? '' : String(c.ns);
            sel.dispatchEvent(new Event('change', { bubbles: true }));
            return {
              name: c.name, ns_offered: have, n_selected: sel.value,
              rows: Array.from(document.querySelectorAll('#answer tbody tr')).map((tr) => [Number(tr.getAttribute('data-tier')), tr.getAttribute('data-key')]),
              excluded: Array.from(document.querySelectorAll('#excluded li')).map((li) => li.getAttribute('data-key')),
            };
          }, c);
          out.chooser.push(got);
          if (c.screenshot) {
            await page.screenshot({ path: path.join(shotsDir, c.screenshot), fullPage: false });
          }
        }
        // the keyboard reaches the controls: Tab lands on a form control
        rec.keyboard = await (async () => {
          await page.focus('#req-removal');
          await page.keyboard.press('Space');
          const checked = await page.evaluate(() => document.getElementById('req-removal').checked);
          await page.keyboard.press('Space');
          return { space_toggles: checked };
        })();
      }
      const shot = path.join(shotsDir, name.replace(/\.html$/, '.png'));
      await page.screenshot({ path: shot, fullPage: false });
      rec.screenshot = shot;
      out.pages[name] = rec;
      await page.close();
    }
  } finally {
    await browser.close();
  }
  fs.writeFileSync(outPath, JSON.stringify(out, null, 1));
}

main().catch((e) => { console.error(e); process.exit(1); });
