import fs from 'node:fs'
import path from 'node:path'
import { localesDir } from '~/utils/paths.server'
import { namespaces, supportedLanguages, type Language } from './config'
import { type Dictionaries, type Dictionary } from './translator'

export type Resources = Record<Language, Dictionaries>

let cached: Resources | undefined

/** The dictionaries under locales/, read once per process. */
export function getResources(): Resources {
	if (cached) return cached
	const resources = {} as Resources
	for (const language of supportedLanguages) {
		resources[language] = {}
		for (const namespace of namespaces) {
			const file = path.join(localesDir, language, `${namespace}.json`)
			resources[language][namespace] = JSON.parse(fs.readFileSync(file, 'utf8')) as Dictionary
		}
	}
	cached = resources
	return resources
}
