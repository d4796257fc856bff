import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { IIFE_BUDGET_BYTES, gzippedSize, kilobytes } from '../../widgets/budget.mjs'

/**
 * The size budget of the partner widgets (issue 9): the script-tag bundle, React included, is at
 * most 60 KB gzipped. The bundle is built first when it is missing or older than its sources.
 */
const root = path.resolve(__dirname, '../..')
const bundle = path.join(root, 'public/widgets/widgets.js')

function newestSource(): number {
	const walk = (dir: string): string[] =>
		fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
	const sources = [...walk(path.join(root, 'widgets')), ...['et', 'en', 'ru'].map((l) => path.join(root, 'locales', l, 'widgets.json'))]
	return Math.max(...sources.map((file) => fs.statSync(file).mtimeMs))
}

describe('the widgets bundle', () => {
	test(
		`fits the budget of ${kilobytes(IIFE_BUDGET_BYTES)} gzipped, React included`,
		() => {
			if (!fs.existsSync(bundle) || fs.statSync(bundle).mtimeMs < newestSource()) {
				execFileSync('npx', ['rollup', '--config', 'widgets/rollup.config.mjs', '--silent'], { cwd: root, stdio: 'pipe' })
			}
			const source = fs.readFileSync(bundle)
			const size = gzippedSize(source)
			console.log(`widgets.js: ${kilobytes(size)} gzipped`)
			expect(size).toBeLessThanOrEqual(IIFE_BUDGET_BYTES)
			// React is inside, and so is the mount API the script tag offers.
			expect(source.toString()).toContain('WorkshopWidgets')
			expect(fs.existsSync(path.join(root, 'public/widgets/widgets.esm.js'))).toBe(true)
		},
		240_000,
	)

	test('the ES module build leaves React to the partner', () => {
		const esm = path.join(root, 'public/widgets/widgets.esm.js')
		if (!fs.existsSync(esm)) return
		const source = fs.readFileSync(esm, 'utf8')
		expect(source).toMatch(/from\s*"react-dom\/client"/)
		expect(source).not.toContain('__SECRET_INTERNALS')
	})
})
