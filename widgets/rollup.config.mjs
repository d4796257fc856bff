// The partner widgets (issue 9): `npm run build:widgets` writes into public/widgets/, which the
// portal serves (Vite copies public/ into build/client on `npm run build:app`).
//   widgets.js      IIFE for a plain <script> tag, React included (window.WorkshopWidgets)
//   widgets.esm.js  ES module for partners who bundle React themselves (react, react-dom as peers)
//   demo.html/.css  the demo page at /widgets/demo.html
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import commonjs from '@rollup/plugin-commonjs'
import nodeResolve from '@rollup/plugin-node-resolve'
import replace from '@rollup/plugin-replace'
import terser from '@rollup/plugin-terser'
import esbuild from 'rollup-plugin-esbuild'
import { IIFE_BUDGET_BYTES, gzippedSize, kilobytes } from './budget.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const src = path.join(root, 'widgets/src')
const out = path.join(root, 'public/widgets')
const languages = ['et', 'en', 'ru']

/** `~/…` is the portal's app/ directory: the widgets share its schemas, types and helpers. */
function portalAlias() {
	return {
		name: 'portal-alias',
		async resolveId(source, importer) {
			if (!source.startsWith('~/')) return null
			const base = path.join(root, 'app', source.slice(2))
			for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
				if (fs.existsSync(candidate)) {
					if (/\.server\.tsx?$/.test(candidate)) this.error(`${importer} imports server-only ${source}`)
					return candidate
				}
			}
			return null
		},
	}
}

/**
 * The texts the widgets use, taken from the portal's own dictionaries
 * (locales/{et,en,ru}/{public,common,widgets,booking,customer,auth}.json), so both say the same thing. Every literal
 * `'namespace:key'` in widgets/src is a key (or a group of keys, or a plural family); a key that
 * is missing in a language fails the build.
 */
function collectTexts(context) {
	const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
	const keys = new Set()
	for (const file of walk(src).filter((f) => /\.(ts|tsx)$/.test(f))) {
		context.addWatchFile(file)
		for (const match of fs.readFileSync(file, 'utf8').matchAll(/'((?:public|common|widgets|booking|customer|auth):[\w.-]+)'/g)) keys.add(match[1])
	}
	const result = {}
	for (const language of languages) {
		const flat = {}
		const loaded = {}
		for (const key of [...keys].sort()) {
			const [namespace, name] = key.split(':')
			loaded[namespace] ??= JSON.parse(fs.readFileSync(path.join(root, 'locales', language, `${namespace}.json`), 'utf8'))
			const parts = name.split('.')
			const last = parts.pop()
			const parent = parts.reduce((node, part) => (node && typeof node === 'object' ? node[part] : undefined), loaded[namespace])
			const add = (fullKey, value) => {
				if (typeof value === 'string') flat[fullKey] = value
				else if (value && typeof value === 'object') for (const [child, inner] of Object.entries(value)) add(`${fullKey}.${child}`, inner)
			}
			const value = parent?.[last]
			const plurals = Object.keys(parent ?? {}).filter((k) => k.startsWith(`${last}_`))
			if (value === undefined && !plurals.length) context.error(`locales/${language}/${namespace}.json has no ${name}`)
			add(key, value)
			for (const plural of plurals) add(`${namespace}:${[...parts, plural].join('.')}`, parent[plural])
		}
		result[language] = flat
	}
	return result
}

/** What a widget says before its dictionary has arrived (or when it cannot arrive). */
const bootKeys = ['widgets:loading', 'widgets:error', 'widgets:retry']

/**
 * `virtual:dictionaries`: `boot` (a few texts in every language) and `loadDictionary(language, base)`.
 * The script-tag bundle fetches one language's texts from `{base}/locales/{lng}.json`, written
 * beside it (a page needs one language, and three would not fit the size budget); the ES module
 * build, which partners bundle themselves, carries all three.
 */
function dictionaries({ embed }) {
	const id = '\0virtual:dictionaries'
	let texts = null
	return {
		name: 'dictionaries',
		resolveId: (source) => (source === 'virtual:dictionaries' ? id : null),
		load(source) {
			if (source !== id) return null
			texts = collectTexts(this)
			const boot = Object.fromEntries(languages.map((l) => [l, Object.fromEntries(bootKeys.map((k) => [k, texts[l][k]]))]))
			const load = embed
				? `const all = ${JSON.stringify(texts)}; export const loadDictionary = (language) => Promise.resolve(all[language])`
				: `export const loadDictionary = (language, base) => fetch(base + '/locales/' + language + '.json').then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))`
			return `export const boot = ${JSON.stringify(boot)}; ${load}`
		},
		writeBundle() {
			if (embed || !texts) return
			fs.mkdirSync(path.join(out, 'locales'), { recursive: true })
			for (const language of languages) fs.writeFileSync(path.join(out, 'locales', `${language}.json`), JSON.stringify(texts[language]))
		},
	}
}

/** `import css from './x.css'`: the stylesheet as a string, whitespace and comments squeezed out. */
function cssText() {
	return {
		name: 'css-text',
		transform(code, id) {
			if (!id.endsWith('.css')) return null
			const minified = code
				.replace(/\/\*[\s\S]*?\*\//g, '')
				.replace(/\s+/g, ' ')
				.replace(/\s*([{}:;,>])\s*/g, '$1')
				.replace(/;}/g, '}')
				.trim()
			return { code: `export default ${JSON.stringify(minified)}`, map: null }
		},
	}
}

/** Prints each bundle's gzipped size; the IIFE over budget fails the build (and the test). */
function sizeReport() {
	return {
		name: 'size-report',
		writeBundle(options, bundle) {
			for (const [fileName, chunk] of Object.entries(bundle)) {
				if (chunk.type !== 'chunk') continue
				const size = gzippedSize(chunk.code)
				const budget = options.format === 'iife' ? ` (budget ${kilobytes(IIFE_BUDGET_BYTES)})` : ''
				console.log(`widgets: ${fileName} ${kilobytes(Buffer.byteLength(chunk.code))}, ${kilobytes(size)} gzipped${budget}`)
				if (process.env.WIDGETS_REPORT) {
					const packages = {}
					for (const [id, info] of Object.entries(chunk.modules)) {
						const name = process.env.WIDGETS_REPORT === 'modules' ? path.relative(root, id) : id.includes('node_modules/') ? id.split('node_modules/').pop().split('/').slice(0, id.includes('@') ? 2 : 1).join('/') : path.relative(root, id)
						packages[name] = (packages[name] ?? 0) + info.renderedLength
					}
					for (const [name, bytes] of Object.entries(packages).sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${name} ${kilobytes(bytes)}`)
				}
				if (options.format === 'iife' && size > IIFE_BUDGET_BYTES) this.error(`${fileName} is ${kilobytes(size)} gzipped, over the budget`)
			}
		},
	}
}

/** The demo page and its stylesheet go next to the bundles. */
function copyDemo() {
	return {
		name: 'copy-demo',
		writeBundle() {
			for (const file of ['demo.html', 'demo.css', 'demo.js']) fs.copyFileSync(path.join(root, 'widgets', file), path.join(out, file))
		},
	}
}

/**
 * The script-tag bundle runs on Preact (preact/compat), as the portal's own browser build does
 * (vite.config.ts): React's 140 KB would leave a fourth widget no room in the budget (decision
 * 0153). The ES module build keeps react and react-dom as the partner's peers.
 */
const preactAliases = [
	[/^react-dom\/client$/, 'preact/compat/client'],
	[/^react-dom$/, 'preact/compat'],
	[/^react\/jsx-runtime$/, 'preact/jsx-runtime'],
	[/^react\/jsx-dev-runtime$/, 'preact/jsx-dev-runtime'],
	[/^react$/, 'preact/compat'],
]
function preactCompat() {
	return {
		name: 'preact-compat',
		resolveId(source, importer, options) {
			const alias = preactAliases.find(([pattern]) => pattern.test(source))
			return alias ? this.resolve(alias[1], importer, { ...options, skipSelf: true }) : null
		},
	}
}

const plugins = (embedTexts, preact = false) => [
	...(preact ? [preactCompat()] : []),
	portalAlias(),
	dictionaries({ embed: embedTexts }),
	cssText(),
	replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
	nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'] }),
	commonjs(),
	esbuild({ target: 'es2020', jsx: 'automatic', tsconfig: path.join(root, 'tsconfig.json') }),
	terser({ ecma: 2020, compress: { passes: 2 }, format: { comments: false } }),
	sizeReport(),
]

/** zod's comments and circular imports are its own business; anything else is reported. */
function onwarn(warning, warn) {
	if (['INVALID_ANNOTATION', 'CIRCULAR_DEPENDENCY'].includes(warning.code) && /node_modules/.test(warning.id ?? warning.ids?.[0] ?? '')) return
	warn(warning)
}

export default [
	{
		input: path.join(src, 'iife.tsx'),
		onwarn,
		output: { file: path.join(out, 'widgets.js'), format: 'iife', name: 'WorkshopWidgets', exports: 'none' },
		plugins: [...plugins(false, true), copyDemo()],
	},
	{
		input: path.join(src, 'index.tsx'),
		onwarn,
		external: (id) => /^react(-dom)?(\/|$)/.test(id),
		output: { file: path.join(out, 'widgets.esm.js'), format: 'es' },
		plugins: plugins(true),
	},
]
