import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * Colours that must be readable, computed from the style sheets themselves (WCAG 2.2 contrast
 * ratio): the focus ring (3:1, non-text) on every background it meets, the disabled pagination
 * step (4.5:1, text), and status labels in one case style.
 */
const root = path.resolve(__dirname, '../..')
const css = (file: string) => fs.readFileSync(path.join(root, 'app/styles', file), 'utf8')
const app = css('app.css')
const publicCss = css('public.css')

/** The declarations of the first rule whose selector list includes `selector`. */
function rule(sheet: string, selector: string) {
	for (const match of sheet.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
		const selectors = match[1]!
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.split(',')
			.map((s) => s.trim())
		if (selectors.includes(selector)) {
			return Object.fromEntries(
				match[2]!
					.replace(/\/\*[\s\S]*?\*\//g, '')
					.split(';')
					.map((d) => d.trim())
					.filter(Boolean)
					.map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]),
			) as Record<string, string>
		}
	}
	throw new Error(`no rule for ${selector}`)
}

const variables = rule(app, ':root')

/** A colour value with var() resolved against :root (and the given overrides). */
function resolve(value: string, overrides: Record<string, string> = {}): string {
	const reference = value.match(/^var\((--[\w-]+)\)$/)
	if (!reference) return value
	const next = overrides[reference[1]!] ?? variables[reference[1]!]
	if (!next) throw new Error(`unknown ${reference[1]}`)
	return resolve(next, overrides)
}

type Rgb = [number, number, number]
function rgb(color: string): Rgb {
	const hex = color.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i)
	if (hex) {
		const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!
		return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb
	}
	throw new Error(`not a hex colour: ${color}`)
}

/** `top` with opacity `alpha` laid over `bottom`. */
const over = (top: string, alpha: number, bottom: string): Rgb => {
	const [a, b] = [rgb(top), rgb(bottom)]
	return a.map((channel, i) => Math.round(channel * alpha + b[i]! * (1 - alpha))) as Rgb
}

function luminance([r, g, b]: Rgb) {
	const [lr, lg, lb] = [r, g, b].map((c) => {
		const s = c / 255
		return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
	})
	return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!
}

function contrast(a: Rgb | string, b: Rgb | string) {
	const [la, lb] = [typeof a === 'string' ? rgb(a) : a, typeof b === 'string' ? rgb(b) : b].map(luminance)
	return (Math.max(la!, lb!) + 0.05) / (Math.min(la!, lb!) + 0.05)
}

const v = (name: string) => resolve(`var(${name})`)

describe('the focus ring', () => {
	const focus = rule(app, ':focus-visible')
	const dark = rule(app, '.site-footer') // the first rule naming it: the dark areas' swap
	const ring = resolve('var(--focus-ring)')
	const halo = resolve('var(--focus-halo)')
	const darkRing = resolve(dark['--focus-ring']!, dark)
	const darkHalo = resolve(dark['--focus-halo']!, dark)

	test('is drawn with the two custom properties', () => {
		expect(focus.outline).toBe('3px solid var(--focus-ring)')
		expect(focus['box-shadow']).toBe('0 0 0 2px var(--focus-halo)')
	})

	test('its two bands differ by at least 3:1, in light and dark areas', () => {
		expect(contrast(ring, halo)).toBeGreaterThanOrEqual(3)
		expect(contrast(darkRing, darkHalo)).toBeGreaterThanOrEqual(3)
	})

	// Light backgrounds: the outer (dark) band alone reaches 3:1. The header's white and the call
	// to action's gradient are read from their rules, so a change there is measured too.
	const headerAlpha = Number(rule(app, '.site-header').background!.match(/^rgb\(255 255 255 \/ (\d+)%\)$/)![1]) / 100
	const callToAction = rule(app, '.call-to-action').background!.match(/#[0-9a-f]{3,6}/gi)!
	const light: Record<string, Rgb | string> = {
		white: v('--color-surface'),
		'the page': v('--color-background'),
		'the header (white, nearly opaque, over the page)': over('#ffffff', headerAlpha, v('--color-background')),
		'a highlighted row': v('--color-primary-50'),
		amber: v('--color-accent'),
		'amber, hovered': v('--color-accent-600'),
		...Object.fromEntries(callToAction.map((colour) => [`the call to action (${colour})`, colour])),
	}
	for (const [name, background] of Object.entries(light)) {
		test(`stands out 3:1 on ${name}`, () => {
			expect(contrast(ring, background)).toBeGreaterThanOrEqual(3)
		})
	}

	// Dark areas (footer, signed-in menu, hero, phone menu): the swapped outer (light) band.
	const darkBackgrounds: Record<string, Rgb | string> = {
		ink: v('--color-ink'),
		'the primary blue (hero, primary buttons)': v('--color-primary'),
		'the active menu entry (amber at 16% over ink)': over(v('--color-accent'), 0.16, v('--color-ink')),
	}
	for (const [name, background] of Object.entries(darkBackgrounds)) {
		test(`stands out 3:1 on ${name}`, () => {
			expect(contrast(darkRing, background)).toBeGreaterThanOrEqual(3)
		})
	}

	// A button's own colour meets the inner band (the offset), which must stand out from it too.
	for (const [name, background] of Object.entries({ 'a primary button': v('--color-primary'), 'an amber button': v('--color-accent') })) {
		test(`one of its bands stands out 3:1 next to ${name}`, () => {
			expect(Math.max(contrast(ring, background), contrast(halo, background))).toBeGreaterThanOrEqual(3)
		})
	}
})

describe('the disabled pagination step', () => {
	test('is text at 4.5:1 on the page and on a panel', () => {
		const color = resolve(rule(publicCss, '.pagination__step--disabled').color!)
		expect(contrast(color, v('--color-background'))).toBeGreaterThanOrEqual(4.5)
		expect(contrast(color, v('--color-surface'))).toBeGreaterThanOrEqual(4.5)
	})
})

describe('status labels', () => {
	test('are in sentence case in every language, and badges do not change it', () => {
		for (const language of ['et', 'en', 'ru']) {
			const { status } = JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'common.json'), 'utf8')) as {
				status: Record<string, Record<string, string>>
			}
			for (const label of Object.values(status).flatMap((labels) => Object.values(labels))) {
				expect(label, `${language}: ${label}`).toMatch(/^\p{Lu}[^\p{Lu}]*$/u)
			}
		}
		for (const sheet of [app, publicCss]) expect(rule(sheet, '.badge')['text-transform']).toBeUndefined()
	})
})
