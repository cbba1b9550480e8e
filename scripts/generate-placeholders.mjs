// Writes the demo's placeholder images (candidate portraits, illustrations) into public/.
// Run once with `node scripts/generate-placeholders.mjs`; the output is committed.
import fs from 'node:fs';
import path from 'node:path';

const out = (file, svg) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${svg.trim()}\n`);
};

const candidates = [
  { code: 'fa', initials: 'FA', colour: '#1D4ED8', skin: '#C68B59' },
  { code: 'lc', initials: 'LC', colour: '#B45309', skin: '#8D5524' },
  { code: 'nr', initials: 'NR', colour: '#047857', skin: '#E0AC69' },
];
for (const c of candidates) {
  out(
    `public/candidatos/${c.code}.svg`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" role="img" aria-label="Retrato de ejemplo ${c.initials}"><title>Retrato de ejemplo ${c.initials}</title>
  <rect width="200" height="200" fill="${c.colour}"/>
  <circle cx="100" cy="80" r="38" fill="${c.skin}"/>
  <path d="M30 200c6-46 36-70 70-70s64 24 70 70z" fill="#f5f5f4"/>
  <text x="100" y="190" font-family="Arial, sans-serif" font-size="26" font-weight="700" text-anchor="middle" fill="${c.colour}">${c.initials}</text>
</svg>`,
  );
}

out(
  'public/favicon.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><title>Comando</title>
  <rect width="64" height="64" rx="14" fill="#A31D1D"/>
  <path d="M20 44V20h16a8 8 0 010 16H26" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="44" cy="44" r="4" fill="#fff"/>
</svg>`,
);

out(
  'public/img/caravana.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 320"><title>Caravana con banderas</title>
  <rect width="640" height="320" fill="#fde68a"/>
  <rect y="220" width="640" height="100" fill="#57534e"/>
  <rect y="262" width="640" height="6" fill="#fafaf9" stroke-dasharray="30 20"/>
  <g fill="#A31D1D"><rect x="60" y="180" width="120" height="50" rx="8"/><rect x="260" y="180" width="120" height="50" rx="8"/><rect x="460" y="180" width="120" height="50" rx="8"/></g>
  <g fill="#1c1917"><circle cx="90" cy="232" r="12"/><circle cx="150" cy="232" r="12"/><circle cx="290" cy="232" r="12"/><circle cx="350" cy="232" r="12"/><circle cx="490" cy="232" r="12"/><circle cx="550" cy="232" r="12"/></g>
  <g stroke="#1c1917" stroke-width="3"><line x1="120" y1="180" x2="120" y2="110"/><line x1="320" y1="180" x2="320" y2="110"/><line x1="520" y1="180" x2="520" y2="110"/></g>
  <g><rect x="120" y="110" width="50" height="30" fill="#facc15"/><rect x="120" y="120" width="50" height="10" fill="#1d4ed8"/><rect x="320" y="110" width="50" height="30" fill="#facc15"/><rect x="320" y="120" width="50" height="10" fill="#1d4ed8"/><rect x="520" y="110" width="50" height="30" fill="#facc15"/><rect x="520" y="120" width="50" height="10" fill="#1d4ed8"/></g>
  <circle cx="560" cy="60" r="34" fill="#f59e0b"/>
</svg>`,
);

out(
  'public/img/mapa-zulia.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 240"><title>Mapa del estado Zulia</title>
  <rect width="320" height="240" fill="#e0f2fe" rx="16"/>
  <path d="M120 20l40 10 30 30-10 40 20 30 30 20-10 40-40 20-30 10-40-10-30-30 10-40-20-30 10-40 20-30z" fill="#A31D1D" opacity="0.9"/>
  <ellipse cx="150" cy="125" rx="28" ry="40" fill="#7dd3fc"/>
  <circle cx="135" cy="75" r="6" fill="#fff"/>
  <text x="160" y="228" font-family="Arial, sans-serif" font-size="16" font-weight="700" text-anchor="middle" fill="#7f1616">ZULIA</text>
</svg>`,
);
console.log('Imágenes de ejemplo escritas en public/.');
