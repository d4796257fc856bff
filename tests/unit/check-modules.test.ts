import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { importCycles, longFiles } from '../../scripts/check-modules.mjs'

/**
 * Issue 31 (decision 0116): `npm run lint` fails on an import cycle, type imports and dynamic
 * imports included, and on a domain file over 500 lines (scripts/check-modules.mjs). These tests
 * prove the check bites, on a tiny project made here.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-modules-'))
const write = (file: string, text: string) => {
	fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
	fs.writeFileSync(path.join(dir, file), text)
}
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test('a cycle made only of a type import and a dynamic import is found and named in import order', async () => {
	write('app/a.ts', "import { type B } from './b'\nexport type A = { b: B }\n")
	write('app/b.ts', "export type B = string\nexport const load = () => import('./a')\n")
	write('app/c.ts', "import { type B } from './b'\nexport const c: B = ''\n")
	const cycles = await importCycles(['app/**/*.ts'], { cwd: dir })
	expect(cycles).toHaveLength(1)
	expect(cycles[0]!.map((file: string) => path.basename(file)).sort()).toEqual(['a.ts', 'b.ts'])
})

test('the same modules without the cycle pass', async () => {
	write('app/b.ts', 'export type B = string\n')
	expect(await importCycles(['app/**/*.ts'], { cwd: dir })).toEqual([])
})

test('a file over the limit is named with its length; one at the limit is not', () => {
	write('domain/area/long.ts', 'x\n'.repeat(501))
	write('domain/area/fits.ts', 'x\n'.repeat(500))
	expect(longFiles(path.join(dir, 'domain'), 500)).toEqual([{ file: expect.stringMatching(/long\.ts$/), lines: 501 }])
})
