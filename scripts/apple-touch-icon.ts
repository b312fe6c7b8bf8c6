/**
 * `bun scripts/apple-touch-icon.ts`: draws static/apple-touch-icon.png (180 × 180, opaque, as
 * iOS wants it) from static/favicon.svg. Run it again when the favicon changes.
 */
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dir, '..');
await initWasm(await Bun.file(join(root, 'node_modules/@resvg/resvg-wasm/index_bg.wasm')).arrayBuffer());
const favicon = await Bun.file(join(root, 'static/favicon.svg')).text();
// iOS rounds the corners itself and shows transparent ones black: fill them with the icon's navy.
const opaque = favicon.replace(/(<svg\b[^>]*>)/, '$1<rect width="100%" height="100%" fill="#0f2a44"/>');
const png = new Resvg(opaque, { fitTo: { mode: 'width', value: 180 }, background: '#0f2a44' }).render().asPng();
await Bun.write(join(root, 'static/apple-touch-icon.png'), png);
console.log(`static/apple-touch-icon.png: ${png.length} bytes`);
