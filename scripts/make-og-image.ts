/** Development aid: draws static/images/og-default.png (1200x630), the default sharing image. */
import { chromium } from 'playwright-core';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dir, '..');
const logo = await Bun.file(join(root, 'static/images/logo.svg')).text();
const shades = await Bun.file(join(root, 'static/images/products/rayban-aviator-classic.svg')).text();
const html = `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;background:linear-gradient(135deg,#0f2a44 0%,#1d3d5e 60%,#0e7490 100%);display:flex;align-items:center;font-family:system-ui,sans-serif;color:white">
  <div style="padding:0 0 0 80px;flex:1">
    <div style="display:flex;align-items:center;gap:20px"><div style="width:88px;height:88px">${logo.replace('<svg', '<svg width="88" height="88"')}</div>
    <div style="font-size:64px;font-weight:800;letter-spacing:-1px">CSA</div></div>
    <div style="font-size:44px;font-weight:800;margin-top:36px;line-height:1.1">Pay for it,<br>or play for it.</div>
    <div style="font-size:26px;margin-top:24px;color:#ffb3a7">The Competitive Shopping Association</div>
    <div style="font-size:22px;margin-top:10px;color:#cbd5e1">Designer goods · Laguna Beach · $1 games</div>
  </div>
  <div style="width:440px;height:440px;margin-right:70px;border-radius:40px;overflow:hidden;box-shadow:0 20px 60px rgba(0,0,0,.35)">${shades.replace('<svg', '<svg width="440" height="440"')}</div>
</div></body></html>`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.screenshot({ path: join(root, 'static/images/og-default.png') });
await browser.close();
console.log('wrote static/images/og-default.png');
