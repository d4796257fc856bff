import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { namespaces, supportedLanguages } from '~/i18n/config'

/**
 * A package's name lives in the packages table (the administrator may rename it), so no text
 * names the demo's paid package a second time: "More with {{name}}" takes the table's name.
 */
test('no text names the paid package itself', () => {
	const root = path.resolve(__dirname, '../..')
	for (const language of supportedLanguages) {
		for (const namespace of namespaces) {
			const text = fs.readFileSync(path.join(root, 'locales', language, `${namespace}.json`), 'utf8')
			expect(text.match(/\bPro\b.*/g) ?? [], `${language}/${namespace}.json`).toEqual([])
		}
	}
})
