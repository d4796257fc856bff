import fs from 'node:fs'
import path from 'node:path'

type Dictionary = { [key: string]: string | Dictionary }

/** The text a reader of `language` sees for `namespace:key`, straight from locales/ (tests assert what users read). */
export function dictionaryText(language: 'et' | 'en' | 'ru', namespace: string, key: string): string {
	const file = path.join(process.cwd(), 'locales', language, `${namespace}.json`)
	const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Dictionary
	const value = key.split('.').reduce<string | Dictionary | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), data)
	if (typeof value !== 'string') throw new Error(`no text for ${language}:${namespace}:${key}`)
	return value
}
