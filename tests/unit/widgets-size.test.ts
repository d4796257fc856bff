import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import packageJson from '../../package.json'
import rollupConfig from '../../widgets/rollup.config.mjs'
import { IIFE_BUDGET_BYTES, gzippedSize, kilobytes } from '../../widgets/budget.mjs'

/**
 * The size budget of the partner widgets (issue 9): the script-tag bundle, its UI library included,
 * is at most 60 KB gzipped. Since the fourth widget (issue 37, decision 0153) that library is Preact
 * (preact/compat aliased for react and react-dom), as in the portal's own browser build: React
 * itself would not leave the four widgets room. The build enforces it: `npm run build` (which `npm test` runs before these
 * tests, docs/decisions/0076) fails when the bundle is over budget, so an oversized bundle fails
 * CI. These tests never build: they prove that check bites, and measure the built bundle.
 */
const root = path.resolve(__dirname, '../..')
const bundle = path.join(root, 'public/widgets/widgets.js')
const esm = path.join(root, 'public/widgets/widgets.esm.js')

function newestSource(): number {
	const walk = (dir: string): string[] =>
		fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
	const sources = [...walk(path.join(root, 'widgets')), ...['et', 'en', 'ru'].map((l) => path.join(root, 'locales', l, 'widgets.json'))]
	return Math.max(...sources.map((file) => fs.statSync(file).mtimeMs))
}

/** The built bundle, when it is there and newer than its sources; `npm test` always builds it first. */
const built = fs.existsSync(bundle) && fs.statSync(bundle).mtimeMs >= newestSource()
if (!built && process.env.CI) throw new Error(`${path.relative(root, bundle)} is missing or older than its sources: npm test builds before it tests`)

type SizeReport = { name: string; writeBundle: (this: { error: (message: string) => never }, options: { format: string }, bundle: Record<string, unknown>) => void }
type Config = { output: { format: string }; plugins: SizeReport[] }
const configs = rollupConfig as unknown as Config[]

/** The build's own size check, as rollup calls it once a bundle is written. */
function checkSize(config: Config, code: string) {
	const check = config.plugins.find((plugin) => plugin.name === 'size-report')
	if (!check) throw new Error(`the ${config.output.format} build has no size check`)
	const log = vi.spyOn(console, 'log').mockImplementation(() => {})
	try {
		check.writeBundle.call(
			{ error: (message: string) => { throw new Error(message) } },
			config.output,
			{ 'widgets.js': { type: 'chunk', code, modules: {} } },
		)
	} finally {
		log.mockRestore()
	}
}

describe('the widgets bundle', () => {
	test(`the build fails when the script-tag bundle is over ${kilobytes(IIFE_BUDGET_BYTES)} gzipped`, () => {
		// `npm run build`, which CI runs, builds the widgets with this configuration.
		expect(packageJson.scripts.build).toMatch(/^npm run build:widgets && /)
		expect(packageJson.scripts['build:widgets']).toBe('rollup --config widgets/rollup.config.mjs')
		const iife = configs.find((config) => config.output.format === 'iife')!
		// Random text hardly compresses: twice the budget, as text, is well over it gzipped.
		const tooBig = Buffer.from(Array.from({ length: IIFE_BUDGET_BYTES * 2 }, () => Math.floor(Math.random() * 256))).toString('base64')
		expect(gzippedSize(tooBig)).toBeGreaterThan(IIFE_BUDGET_BYTES)
		expect(() => checkSize(iife, tooBig)).toThrow(/over the budget/)
		expect(() => checkSize(iife, 'window.WorkshopWidgets={}')).not.toThrow()
	})

	test('the script-tag bundle is built on Preact, the ES module build leaves React to the partner', () => {
		const plugins = (format: string) => configs.find((config) => config.output.format === format)!.plugins.map((plugin) => plugin.name)
		expect(plugins('iife')).toContain('preact-compat')
		expect(plugins('es')).not.toContain('preact-compat')
	})

	test.skipIf(!built)(`fits the budget of ${kilobytes(IIFE_BUDGET_BYTES)} gzipped, its UI library included`, () => {
		const source = fs.readFileSync(bundle)
		const size = gzippedSize(source)
		console.log(`widgets.js: ${kilobytes(size)} gzipped`)
		expect(size).toBeLessThanOrEqual(IIFE_BUDGET_BYTES)
		// Preact is inside (React's runtime is not), and so is the mount API the script tag offers, with all four widgets.
		const text = source.toString()
		expect(text).toContain('WorkshopWidgets')
		expect(text).not.toMatch(/Minified React error|__SECRET_INTERNALS/)
		for (const kind of ['list', 'details', 'contact', 'request']) expect(text).toContain(`"${kind}"`)
		expect(fs.existsSync(esm)).toBe(true)
	})

	test.skipIf(!built)('the ES module build leaves React to the partner', () => {
		const source = fs.readFileSync(esm, 'utf8')
		expect(source).toMatch(/from\s*"react-dom\/client"/)
		expect(source).not.toContain('__SECRET_INTERNALS')
	})
})
