// Draws the installed app's icons (public/icons/) and public/favicon.ico from the favicon's design: run
// after changing it. favicon.ico is for what asks for that address without reading the page (older
// browsers, feed readers, bookmarks tools): 16, 32 and 48 px PNGs in one ICO file (ico-endec).
// `any` icons are the favicon itself; the maskable one has the mark inside the central safe circle
// (80 % of the width) on a full red square, so a launcher may cut it to any shape.
import fs from 'node:fs';
import icoEndec from 'ico-endec';
import sharp from 'sharp';

const RED = '#A31D1D';
const mark = (scale) => {
  // The favicon's mark is drawn on a 64 px grid; the maskable icon shrinks it around the centre.
  const offset = (64 - 64 * scale) / 2;
  return `<g transform="translate(${offset} ${offset}) scale(${scale})">
    <path d="M20 44V20h16a8 8 0 010 16H26" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
    <circle cx="44" cy="44" r="4" fill="#fff"/>
  </g>`;
};
const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${RED}"/>${mark(1)}</svg>`;
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${RED}"/>${mark(0.72)}</svg>`;

fs.mkdirSync('public/icons', { recursive: true });
const outputs = [
  ['public/icons/icon-192.png', any, 192],
  ['public/icons/icon-512.png', any, 512],
  ['public/icons/icon-maskable-512.png', maskable, 512],
  ['public/icons/apple-touch-icon-180.png', maskable, 180],
];
for (const [file, svg, size] of outputs) {
  await sharp(Buffer.from(svg)).resize(size, size).png({ compressionLevel: 9 }).toFile(file);
  console.log(file);
}

const icoSizes = [16, 32, 48];
const pngs = await Promise.all(
  icoSizes.map((size) => sharp(Buffer.from(any)).resize(size, size).png({ compressionLevel: 9 }).toBuffer()),
);
fs.writeFileSync('public/favicon.ico', icoEndec.encode(pngs));
console.log('public/favicon.ico');
