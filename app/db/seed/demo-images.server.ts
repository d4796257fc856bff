import sharp from 'sharp'

/**
 * Pictures for the demo data, drawn from SVG shapes at seed time so the repository carries
 * no binary assets. No text is drawn: a bare machine may have no fonts.
 */

const CAR =
	'M40 120 L60 82 Q68 68 86 66 L170 62 Q190 61 204 74 L236 104 L276 112 Q296 116 298 136 L298 150 Q298 158 290 158 L270 158 A28 28 0 0 0 214 158 L106 158 A28 28 0 0 0 50 158 L36 158 Q28 158 28 150 L28 134 Q28 122 40 120 Z'

const glyphs: Record<string, string> = {
	wrench:
		'<path d="M150 58a44 44 0 0 0-52 56L50 162a16 16 0 0 0 22 22l48-48a44 44 0 0 0 56-52l-26 26-22-4-4-22z" fill="#fff"/>',
	gear: '<circle cx="128" cy="128" r="34" fill="none" stroke="#fff" stroke-width="20"/><g stroke="#fff" stroke-width="22" stroke-linecap="round"><path d="M128 58v-14M128 212v-14M58 128h-14M212 128h-14M78 78l-10-10M188 188l-10-10M78 178l-10 10M188 68l-10 10"/></g>',
	tyre: '<circle cx="128" cy="128" r="70" fill="none" stroke="#fff" stroke-width="26"/><circle cx="128" cy="128" r="20" fill="#fff"/><g stroke="#fff" stroke-width="8"><path d="M128 108V70M128 148v38M108 128H70M148 128h38"/></g>',
	bolt: '<path d="M140 40 70 142h48l-12 74 78-110h-50z" fill="#fff"/>',
	drop: '<path d="M128 48C100 96 80 124 80 152a48 48 0 0 0 96 0c0-28-20-56-48-104z" fill="#fff"/>',
	car: `<g transform="translate(16 44) scale(0.75)"><path d="${CAR}" fill="#fff"/><circle cx="78" cy="160" r="20" fill="#fff"/><circle cx="242" cy="160" r="20" fill="#fff"/></g>`,
	shield: '<path d="M128 44 60 70v54c0 44 30 76 68 88 38-12 68-44 68-88V70z" fill="#fff"/><path d="m98 128 22 22 40-44" fill="none" stroke="currentColor" stroke-width="16"/>',
	piston:
		'<rect x="88" y="48" width="80" height="70" rx="10" fill="#fff"/><rect x="118" y="118" width="20" height="70" fill="#fff"/><circle cx="128" cy="196" r="22" fill="none" stroke="#fff" stroke-width="12"/>',
}

export const demoPalette = [
	['#0f4c81', '#1b75bb'],
	['#b23a48', '#e05a62'],
	['#1f7a4d', '#2fae6f'],
	['#6b3fa0', '#9466d1'],
	['#c0692b', '#ee9a4d'],
	['#14213d', '#3b4d73'],
	['#00796b', '#26a69a'],
	['#8d1c5a', '#c2407f'],
	['#37474f', '#607d8b'],
	['#9e7700', '#d4a417'],
	['#1d3557', '#457b9d'],
	['#5d4037', '#8d6e63'],
] as const

function svg(width: number, height: number, body: string) {
	return Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
	)
}

/** A square badge logo with a glyph, as WebP. */
export async function workshopLogo(index: number) {
	const [from, to] = demoPalette[index % demoPalette.length]!
	const glyph = Object.values(glyphs)[index % Object.keys(glyphs).length]!
	const body = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
		<rect width="256" height="256" rx="56" fill="url(#g)"/><g color="${from}">${glyph}</g>`
	return sharp(svg(256, 256, body)).webp({ quality: 90 }).toBuffer()
}

/** A workshop scene: a lifted car, a tool wall or a service bay, as WebP. */
export async function workshopPhoto(index: number, variant: number) {
	const [from, to] = demoPalette[(index + variant) % demoPalette.length]!
	const carColour = demoPalette[(index * 3 + variant + 5) % demoPalette.length]![1]
	const scenes = [
		// a car on a lift in a bay
		`<rect y="560" width="1200" height="240" fill="#2b2f36"/><rect x="0" y="120" width="1200" height="440" fill="url(#wall)"/>
		 <g fill="#e8c547"><rect x="330" y="380" width="24" height="180"/><rect x="846" y="380" width="24" height="180"/></g>
		 <g transform="translate(300 170) scale(2)"><path d="${CAR}" fill="${carColour}"/><circle cx="78" cy="160" r="24" fill="#1c1f24"/><circle cx="242" cy="160" r="24" fill="#1c1f24"/><circle cx="78" cy="160" r="10" fill="#9aa3ad"/><circle cx="242" cy="160" r="10" fill="#9aa3ad"/></g>
		 <g fill="#fff" opacity=".18"><rect x="80" y="160" width="160" height="110" rx="8"/><rect x="960" y="160" width="160" height="110" rx="8"/></g>`,
		// the tool wall
		`<rect width="1200" height="800" fill="url(#wall)"/><rect x="140" y="120" width="920" height="420" rx="16" fill="#1d2228" opacity=".55"/>
		 <g stroke="#d9dde3" stroke-width="14" stroke-linecap="round">${Array.from({ length: 9 }, (_, i) => `<path d="M${220 + i * 90} 180v${120 + ((i * 37) % 90)}"/>`).join('')}</g>
		 <g fill="#d9dde3">${Array.from({ length: 9 }, (_, i) => `<circle cx="${220 + i * 90}" cy="${310 + ((i * 37) % 90)}" r="${14 + (i % 3) * 5}"/>`).join('')}</g>
		 <rect x="0" y="600" width="1200" height="200" fill="#2b2f36"/><rect x="180" y="560" width="380" height="120" rx="10" fill="#c0392b"/><rect x="620" y="560" width="380" height="120" rx="10" fill="#c0392b"/>`,
		// a service bay with tyres
		`<rect width="1200" height="800" fill="url(#wall)"/><rect y="600" width="1200" height="200" fill="#2b2f36"/>
		 ${Array.from({ length: 4 }, (_, i) => `<g transform="translate(${160 + i * 240} 380)"><circle r="110" cx="100" cy="110" fill="#1c1f24"/><circle r="56" cx="100" cy="110" fill="#8a939c"/><circle r="20" cx="100" cy="110" fill="#1c1f24"/></g>`).join('')}
		 <rect x="80" y="120" width="1040" height="60" rx="8" fill="#fff" opacity=".2"/>`,
	]
	const body = `<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
		<rect width="1200" height="800" fill="${from}"/>${scenes[variant % scenes.length]}`
	return sharp(svg(1200, 800, body)).webp({ quality: 72 }).toBuffer()
}

/** The site's mark: a wrench over a car, as PNG. */
export async function siteLogo(size = 256) {
	const body = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b3d91"/><stop offset="1" stop-color="#1f6fd1"/></linearGradient></defs>
		<rect width="256" height="256" rx="64" fill="url(#g)"/>
		<g transform="translate(28 40) scale(0.62)"><path d="${CAR}" fill="#fff"/><circle cx="78" cy="160" r="20" fill="#f5a524"/><circle cx="242" cy="160" r="20" fill="#f5a524"/></g>
		<path d="M182 150a30 30 0 0 0-36 38l-34 34a11 11 0 0 0 16 16l34-34a30 30 0 0 0 38-36l-18 18-16-3-3-16z" fill="#f5a524" transform="translate(-10 -40)"/>`
	return sharp(svg(256, 256, body)).resize(size, size).png().toBuffer()
}

/** A wide banner for the footer ad, as WebP. */
export async function adBanner() {
	const body = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#0b3d91"/><stop offset="1" stop-color="#1f6fd1"/></linearGradient></defs>
		<rect width="970" height="120" fill="url(#g)"/>
		${Array.from({ length: 5 }, (_, i) => `<g transform="translate(${560 + i * 80} 20)"><circle r="38" cx="40" cy="40" fill="#14161a"/><circle r="18" cx="40" cy="40" fill="#f5a524"/></g>`).join('')}
		<g transform="translate(40 10) scale(0.62)"><path d="${CAR}" fill="#fff"/><circle cx="78" cy="160" r="20" fill="#f5a524"/><circle cx="242" cy="160" r="20" fill="#f5a524"/></g>
		<rect x="260" y="40" width="240" height="14" rx="7" fill="#fff"/><rect x="260" y="66" width="170" height="12" rx="6" fill="#fff" opacity=".7"/>`
	return sharp(svg(970, 120, body)).webp({ quality: 85 }).toBuffer()
}
