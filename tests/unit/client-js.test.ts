import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { areaOf, overBudget, pageSizes, serverOnlyFindings } from '../../scripts/check-client-js.mjs'

/**
 * Issue 18, goal 3: the build fails when server-only code reaches the browser or a page's
 * JavaScript grows past its budget (scripts/check-client-js.mjs, run by `npm run build:app`).
 * These tests prove the check bites, and read the build `npm test` made first.
 */
const budgets = JSON.parse(fs.readFileSync(path.join(__dirname, '../../scripts/client-js-budgets.json'), 'utf8')) as {
	areas: Record<string, number>
	pages: Record<string, number>
}

test('a client chunk with the database schema in it is found', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-js-'))
	fs.mkdirSync(path.join(dir, 'assets'))
	fs.writeFileSync(path.join(dir, 'assets', 'form-abc.js'), 'const t=Symbol.for("drizzle:Name");export{t}')
	fs.writeFileSync(path.join(dir, 'assets', 'fine-abc.js'), 'export const x=1')
	expect(serverOnlyFindings(dir)).toEqual([expect.stringContaining('form-abc.js')])
	fs.rmSync(dir, { recursive: true, force: true })
})

test('a page over its own budget, or over its area’s when it has none, is named', () => {
	const limits = { areas: { public: 100, signedIn: 200 }, pages: { 'routes/_public.login': 150 } }
	const over = overBudget({ 'routes/_public.login': 151, 'routes/_public.about': 99, 'routes/_app.dashboard': 201, 'routes/_app.new': 150 }, limits)
	expect(over.map((page: { id: string }) => page.id)).toEqual(['routes/_public.login', 'routes/_app.dashboard'])
	expect(areaOf('routes/_app.add-vehicle')).toBe('signedIn')
	expect(areaOf('routes/_public._index')).toBe('public')
})

test('the build has no server-only code in the browser, and every page is within its budget', () => {
	expect(serverOnlyFindings()).toEqual([])
	const pages = pageSizes() as Record<string, number>
	expect(Object.keys(pages).length).toBeGreaterThan(40)
	expect(overBudget(pages, budgets)).toEqual([])
	// The vehicle form no longer carries the schema: its page is smaller than the request form's.
	expect(pages['routes/_app.add-vehicle']).toBeLessThan(pages['routes/_app.new-service-register']!)
})
